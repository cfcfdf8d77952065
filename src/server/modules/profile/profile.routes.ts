import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatPersonName } from "#shared/format.ts";
import { accountExportSchema, deleteAccountInputSchema, deleteAccountResponseSchema } from "#shared/schemas/account.ts";
import {
  accountSessionsSchema,
  currentUserSchema,
  sessionParamsSchema,
  sessionsEndedSchema,
} from "#shared/schemas/auth.ts";
import { profileInputSchema } from "#shared/schemas/certificates.ts";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { describeDevice, endOtherSessions, endSession, listSessions } from "../../auth/sessions.ts";
import { AccountErasedError } from "../../db/account-lock.ts";
import { durableWrite } from "../../db/fast-paths.ts";
import { notFound } from "../../errors.ts";
import { COMMON_QUESTIONS_TOPIC } from "../../invalidation/topics.ts";
import { requireUser, sessionIdOf } from "../../plugins/auth.ts";
import { sendEncoded } from "../../plugins/serialization.ts";
import { deleteAccount, exportAccountData } from "./account-data.ts";

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  app.put(
    "/api/profile",
    { schema: { body: profileInputSchema, response: { 200: currentUserSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const { firstName, lastName, nameOrder = user.nameOrder } = request.body;
      // One statement, grouped with other writes into one commit on SQLite.
      const updated = await durableWrite(db, (trx) =>
        trx
          .updateTable("user")
          .set({
            firstName,
            lastName,
            nameOrder,
            name: formatPersonName(firstName, lastName, nameOrder),
            updatedAt: new Date().toISOString(),
          })
          .where("id", "=", user.id)
          // Erased since the session was read: the row's lock orders the two (decision 0051).
          .where("erasedAt", "is", null)
          .executeTakeFirst(),
      );
      if (Number(updated.numUpdatedRows) !== 1) throw new AccountErasedError();
      return { ...user, firstName, lastName, nameOrder };
    },
  );

  const exportSchema = { response: { 200: accountExportSchema } };
  app.get("/api/account/export", { schema: exportSchema }, async (request, reply) => {
    const user = await requireUser(request);
    const data = await exportAccountData(db, user.id);
    reply
      .header("cache-control", "no-store")
      .header("content-disposition", 'attachment; filename="my-academy-data.json"');
    return sendEncoded(reply, "application/json; charset=utf-8", JSON.stringify(data, null, 2));
  });

  app.post(
    "/api/account/delete",
    {
      schema: { body: deleteAccountInputSchema, response: { 200: deleteAccountResponseSchema } },
      // Each try checks a password: bounded like sign-in.
      config: { rateLimit: { max: 10, timeWindow: "15 minutes" } },
    },
    async (request) => {
      const user = await requireUser(request);
      await deleteAccount(db, user.id, request.body.password);
      request.log.info({ userId: user.id }, "account deleted");
      // Its answers may have stood in a lesson's common questions.
      await app.deps.invalidation.publish(COMMON_QUESTIONS_TOPIC);
      return { message: "Your account has been deleted." };
    },
  );

  // The account's sessions (decision 0054): listed by id (tokens stay on the server), signed out one
  // by one or all but this one; a deleted row ends the session on every instance at once.
  app.get("/api/profile/sessions", { schema: { response: { 200: accountSessionsSchema } } }, async (request) => {
    const user = await requireUser(request);
    const current = sessionIdOf(user);
    return (await listSessions(db, user.id)).map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      ipAddress: row.ipAddress,
      signedInAt: new Date(row.createdAt).toISOString(),
      lastSeenAt: new Date(row.updatedAt).toISOString(),
      current: row.id === current,
    }));
  });

  app.delete(
    "/api/profile/sessions/:id",
    { schema: { params: sessionParamsSchema, response: { 200: sessionsEndedSchema } } },
    async (request) => {
      const user = await requireUser(request);
      if (!(await endSession(db, user.id, request.params.id))) throw notFound("No such session.");
      return { ended: 1 };
    },
  );

  app.post(
    "/api/profile/sessions/sign-out-others",
    { schema: { body: emptyBodySchema, response: { 200: sessionsEndedSchema } } },
    async (request) => {
      const user = await requireUser(request);
      return { ended: await endOtherSessions(db, user.id, sessionIdOf(user)) };
    },
  );
};
