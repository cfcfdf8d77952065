import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatPersonName } from "#shared/format.ts";
import { accountExportSchema, deleteAccountInputSchema, deleteAccountResponseSchema } from "#shared/schemas/account.ts";
import {
  accountSessionsSchema,
  currentUserSchema,
  passwordSignInSchema,
  sessionParamsSchema,
  sessionsEndedSchema,
} from "#shared/schemas/auth.ts";
import { profileInputSchema } from "#shared/schemas/certificates.ts";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { securityMail } from "../../auth/security-mail.ts";
import { describeDevice, endOtherSessions, endSession, listSessions } from "../../auth/sessions.ts";
import { AccountErasedError } from "../../db/account-lock.ts";
import { durableWrite } from "../../db/fast-paths.ts";
import { conflict, notFound } from "../../errors.ts";
import { COMMON_QUESTIONS_TOPIC } from "../../invalidation/topics.ts";
import { requireStepUp, requireUser, sessionIdOf } from "../../plugins/auth.ts";
import { sendEncoded } from "../../plugins/serialization.ts";
import { deleteAccount, exportAccountData } from "./account-data.ts";

const NO_PASSKEY_MESSAGE = "Add a passkey first: without a password, a passkey is the way in.";

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

  // Password sign-in on or off (decision 0054): off only while the account has a passkey, so its owner
  // always has a way in; the sign-in bridge (plugins/auth.ts) refuses the password while it is off.
  const notify = securityMail(db, app.deps.config.appUrl);
  const passwordSignInOf = async (userId: string) =>
    Boolean(
      (await db.selectFrom("user").select("passwordSignIn").where("id", "=", userId).executeTakeFirst())
        ?.passwordSignIn,
    );
  app.get(
    "/api/profile/password-sign-in",
    { schema: { response: { 200: passwordSignInSchema } } },
    async (request) => ({ enabled: await passwordSignInOf((await requireUser(request)).id) }),
  );
  app.put(
    "/api/profile/password-sign-in",
    { schema: { body: passwordSignInSchema, response: { 200: passwordSignInSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const { enabled } = request.body;
      const noPasskey = !(await db.selectFrom("passkey").select("id").where("userId", "=", user.id).executeTakeFirst());
      if (!enabled && noPasskey) throw conflict(NO_PASSKEY_MESSAGE);
      // A change to how the account signs in: a fresh confirmation first, after the passkey check.
      requireStepUp(user);
      const changed = await durableWrite(db, (trx) => {
        const update = trx
          .updateTable("user")
          .set({ passwordSignIn: enabled, updatedAt: new Date().toISOString() })
          .where("id", "=", user.id)
          .where("passwordSignIn", "=", !enabled)
          .where("erasedAt", "is", null);
        // Off needs a passkey, checked in the same statement as the write.
        return (
          enabled
            ? update
            : update.where((eb) => eb.exists(eb.selectFrom("passkey").select("id").where("userId", "=", user.id)))
        ).executeTakeFirst();
      });
      if (Number(changed.numUpdatedRows) === 1)
        await notify(user.id, enabled ? "password-sign-in-on" : "password-sign-in-off");
      else if ((await passwordSignInOf(user.id)) !== enabled) throw conflict(NO_PASSKEY_MESSAGE);
      return { enabled };
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
