import type { FastifyInstance } from "fastify";
import { sendDueEmails } from "#server/mail/outbox.ts";

const quiet = { warn: () => {} };

/** One turn of the outbox's sender, as the `email-outbox` job runs it. */
export function sendOutbox(app: FastifyInstance, now?: number) {
  return sendDueEmails({ db: app.deps.database.db, mailer: app.deps.mailer, log: quiet }, now);
}

/**
 * Waits until the mail queued by the answers so far has been handed to the transport: nothing due is
 * left and nothing is being sent (a message waiting out its back-off is not waited for).
 */
export async function deliverQueuedMail(app: FastifyInstance): Promise<void> {
  await app.deps.background.idle();
  const db = app.deps.database.db;
  for (;;) {
    await sendOutbox(app);
    const pending = await db
      .selectFrom("outboxEmail")
      .select("id")
      .where((eb) =>
        eb.or([
          eb("status", "=", "sending"),
          eb.and([eb("status", "=", "queued"), eb("nextAttemptAt", "<=", new Date().toISOString())]),
        ]),
      )
      .executeTakeFirst();
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
