import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { z } from "zod";
import { pendingMigrations } from "../../db/migrate.ts";

/**
 * For load balancers and orchestrators: /healthz says the process is up, /readyz that it can serve
 * (the database answers and has every migration this build knows).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database } = app.deps;
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
    200: z.object({ status: z.literal("ready") }),
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
      return { status: "ready" as const };
    } catch (error) {
      request.log.warn({ err: error }, "readiness check failed");
      return reply.status(503).send({ message: "The database is unreachable." });
    }
  });
};
