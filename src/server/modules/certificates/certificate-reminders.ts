import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { RENEWAL_CLOSES_DAYS_AFTER_EXPIRY } from "#shared/constants.ts";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { renewalWindow } from "./certificate-lifecycle.ts";
import { REMINDER_TOPIC, unsubscribeToken } from "./reminder-unsubscribe.ts";

export interface ReminderDeps {
  db: Kysely<DB>;
  config: Config;
  catalogue: () => Promise<Catalogue>;
}

const DAY_MS = 86_400_000;
/** Certificates read per page of a band. */
export const REMINDER_BATCH = 500;
/** The page a person opens, and the address a mail client POSTs to (RFC 8058 one-click). */
export function unsubscribeLinks(config: Pick<Config, "appUrl" | "authSecret">, userId: string) {
  const token = unsubscribeToken(config.authSecret, userId);
  return {
    unsubscribeUrl: `${config.appUrl}/unsubscribe?token=${token}`,
    oneClickUnsubscribeUrl: `${config.appUrl}/api/email/unsubscribe?token=${token}`,
  };
}

const longDate = (d: Date) => d.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

/** The reminder bands a sweep at `now` looks at: each threshold's days, nearest first, then "expired". */
function reminderBands(reminderDays: number[], now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
  const days = [...new Set(reminderDays)].sort((a, b) => a - b);
  const bands = days.map((d, i) => ({ kind: `${d}-days`, after: at(days[i - 1] ?? 0), upTo: at(d) }));
  // Expired certificates are reminded only while they can still be renewed.
  return [...bands, { kind: "expired", after: at(-RENEWAL_CLOSES_DAYS_AFTER_EXPIRY), upTo: now.toISOString() }];
}

/**
 * One sweep: every unrevoked certificate inside a reminder threshold (or expired and still renewable)
 * whose holder has not unsubscribed gets the reminder it is due, once. A sweep pages through each band
 * (the certificates whose due reminder is the same kind, dueReminderKind) and looks only at
 * certificates with no row for that kind and expiry date, so however many are due, every page is new
 * work. The row per certificate, kind and expiry date and the message (the outbox) are written in one
 * transaction, and only the instance whose insert lands queues it; a renewal or extension moves the
 * expiry date, so the next period's reminders start anew. Returns the reminders queued.
 */
export async function sweepCertificateReminders(deps: ReminderDeps, now = new Date()): Promise<number> {
  const { db, config } = deps;
  const catalogue = await deps.catalogue();
  let queued = 0;
  for (const band of reminderBands(config.certificateReminderDays, now)) {
    for (;;) {
      const rows = await db
        .selectFrom("certificate")
        .innerJoin("user", "user.id", "certificate.userId")
        .leftJoin("emailOptOut", (join) =>
          join.onRef("emailOptOut.userId", "=", "certificate.userId").on("emailOptOut.topic", "=", REMINDER_TOPIC),
        )
        .select([
          "certificate.certificateId",
          "certificate.userId",
          "certificate.courseId",
          "certificate.firstName",
          "certificate.expiresAt",
          "user.email",
        ])
        .where("certificate.revokedAt", "is", null)
        .where("emailOptOut.userId", "is", null)
        .where("certificate.expiresAt", ">", band.after)
        .where("certificate.expiresAt", "<=", band.upTo)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("certificateReminder")
                .select("certificateReminder.id")
                .whereRef("certificateReminder.certificateId", "=", "certificate.certificateId")
                .whereRef("certificateReminder.expiresAt", "=", "certificate.expiresAt")
                .where("certificateReminder.kind", "=", band.kind),
            ),
          ),
        )
        .orderBy("certificate.expiresAt")
        .orderBy("certificate.certificateId")
        .limit(REMINDER_BATCH)
        .execute();
      for (const row of rows) {
        // The reminder's row and its message, in one short transaction per certificate.
        const wasQueued = await db.transaction().execute(async (trx) => {
          const claimed = await trx
            .insertInto("certificateReminder")
            .values({
              id: randomUUID(),
              certificateId: row.certificateId,
              kind: band.kind,
              expiresAt: row.expiresAt,
              sentAt: now.toISOString(),
            })
            .onConflict((oc) => oc.columns(["certificateId", "kind", "expiresAt"]).doNothing())
            .returning("id")
            .executeTakeFirst();
          if (!claimed) return false;
          const expiresAt = new Date(row.expiresAt);
          await enqueueEmail(trx, {
            to: row.email,
            userId: row.userId,
            topic: REMINDER_TOPIC,
            template: "certificate-reminder",
            data: {
              firstName: row.firstName,
              courseTitle: catalogue.byId.get(row.courseId)?.card.title ?? row.courseId,
              certificateId: row.certificateId,
              kind: band.kind,
              expiresAt: longDate(expiresAt),
              daysLeft: Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS),
              renewalClosesAt: longDate(renewalWindow(expiresAt).closesAt),
              renewUrl: `${config.appUrl}/certificates`,
              ...unsubscribeLinks(config, row.userId),
            },
            link: `${config.appUrl}/certificates`,
          });
          return true;
        });
        if (wasQueued) queued++;
      }
      if (rows.length < REMINDER_BATCH) break;
    }
  }
  return queued;
}
