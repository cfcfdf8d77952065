import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  outboxMessageSchema,
  outboxParamsSchema,
  outboxQuerySchema,
  pagedOutboxSchema,
} from "#shared/schemas/outbox.ts";
import { conflict, notFound } from "../../errors.ts";
import { countOutbox, listOutbox, readOutboxEmail, retryOutboxEmail } from "../../mail/outbox.ts";
import { emailSite } from "../../mail/render-email.ts";
import { requireAdmin } from "../../plugins/auth.ts";
import { recordAudit } from "../audit/audit.ts";

/** The Outbox page: every message by status, one message as rendered, and a retry. Admins only. */
export const adminOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, config } = app.deps;
  const db = database.db;
  const site = emailSite(config);
  app.addHook("onRequest", async (request) => {
    await requireAdmin(request);
  });

  app.get(
    "/api/admin/outbox",
    { schema: { querystring: outboxQuerySchema, response: { 200: pagedOutboxSchema } } },
    async (request) => {
      const { status, page, pageSize } = request.query;
      const [{ items, total }, counts] = await Promise.all([
        listOutbox(db, site, { status, limit: pageSize, offset: (page - 1) * pageSize }),
        countOutbox(db),
      ]);
      return { items, total, page, pageSize, counts };
    },
  );

  const message = async (id: string) => {
    const found = await readOutboxEmail(db, id, site);
    if (!found) throw notFound("No message has this ID.");
    const { rendered, ...item } = found;
    return { ...item, html: rendered?.html ?? null, text: rendered?.text ?? null };
  };

  app.get(
    "/api/admin/outbox/:id",
    { schema: { params: outboxParamsSchema, response: { 200: outboxMessageSchema } } },
    async (request) => message(request.params.id),
  );

  app.post(
    "/api/admin/outbox/:id/retry",
    { schema: { params: outboxParamsSchema, response: { 200: outboxMessageSchema } } },
    async (request) => {
      const admin = await requireAdmin(request);
      const { id } = request.params;
      const retried = await db.transaction().execute(async (trx) => {
        if (!(await retryOutboxEmail(trx, id))) return false;
        await recordAudit(trx, admin, "outbox.retry", id);
        return true;
      });
      const answer = await message(id);
      if (!retried) throw conflict("Only a failed or waiting message can be retried.");
      return answer;
    },
  );
};
