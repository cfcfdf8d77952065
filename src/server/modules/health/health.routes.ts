import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { z } from "zod";
import { pendingMigrations } from "../../db/migrate.ts";

/**
 * For load balancers and orchestrators: /healthz says the process is up, /readyz that it can serve
 * (the database answers and has every migration this build knows). With REDIS_URL set and Redis out
 * of reach, /readyz still answers 200 (requests go on, the database stands in) but says `degraded`.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, redis } = app.deps;
  let migrationsCurrent = false;

  app.get(
    "/healthz",
    { schema: { response: { 200: z.object({ status: z.literal("ok") }) } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { status: "ok" as const };
    },
  );

  const readiness = {
    200: z.object({
      status: z.enum(["ready", "degraded"]),
      /** Why the instance is degraded. */
      message: z.string().optional(),
    }),
    503: z.object({ message: z.string(), pending: z.array(z.string()).optional() }),
  };
  app.get("/readyz", { schema: { response: readiness } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (app.isDraining()) return reply.status(503).send({ message: "Shutting down." });
    try {
      await sql`select 1`.execute(database.db);
      if (!migrationsCurrent) {
        const pending = await pendingMigrations(database.db, { schema: database.schema });
        if (pending.length) return reply.status(503).send({ message: "Database migrations are pending.", pending });
        migrationsCurrent = true;
      }
    } catch (error) {
      request.log.warn({ err: error }, "readiness check failed");
      return reply.status(503).send({ message: "The database is unreachable." });
    }
    const health = redis ? await redis.check() : { ok: true as const };
    if (!health.ok) {
      return {
        status: "degraded" as const,
        message: `${health.message} Rate limits, lockouts and cache news go through the database until it is back.`,
      };
    }
    return { status: "ready" as const };
  });
};
