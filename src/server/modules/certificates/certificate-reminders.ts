import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { RENEWAL_CLOSES_DAYS_AFTER_EXPIRY } from "#shared/constants.ts";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { dueReminderKind, renewalWindow } from "./certificate-lifecycle.ts";
import { REMINDER_TOPIC, unsubscribeToken } from "./reminder-unsubscribe.ts";

export interface ReminderDeps {
  db: Kysely<DB>;
  config: Config;
  mailer: Mailer;
  catalogue: () => Promise<Catalogue>;
  log: { warn(obj: object, msg: string): void };
}

const DAY_MS = 86_400_000;
/** Certificates looked at per sweep; the next sweep takes the rest. */
const BATCH = 500;
/** The page a person opens, and the address a mail client POSTs to (RFC 8058 one-click). */
export function unsubscribeLinks(config: Pick<Config, "appUrl" | "authSecret">, userId: string) {
  const token = unsubscribeToken(config.authSecret, userId);
  return {
    unsubscribeUrl: `${config.appUrl}/unsubscribe?token=${token}`,
    oneClickUnsubscribeUrl: `${config.appUrl}/api/email/unsubscribe?token=${token}`,
  };
}

const longDate = (d: Date) => d.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

/**
 * One sweep: every unrevoked certificate inside a reminder threshold (or expired and still renewable)
 * whose holder has not unsubscribed gets the reminder it is due, once. The row per certificate, kind
 * and expiry date is inserted before the mail goes out, and only the instance whose insert lands
 * sends it; a renewal or extension moves the expiry date, so the next period's reminders start anew.
 * A send that fails removes its row, so the next sweep tries again. Returns the reminders sent.
 */
export async function sweepCertificateReminders(deps: ReminderDeps, now = new Date()): Promise<number> {
  const { db, config } = deps;
  const horizon = new Date(now.getTime() + Math.max(...config.certificateReminderDays) * DAY_MS);
  // Expired certificates are reminded only while they can still be renewed.
  const oldest = new Date(now.getTime() - RENEWAL_CLOSES_DAYS_AFTER_EXPIRY * DAY_MS);
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
    .where("certificate.expiresAt", "<=", horizon.toISOString())
    .where("certificate.expiresAt", ">", oldest.toISOString())
    .orderBy("certificate.expiresAt")
    .limit(BATCH)
    .execute();
  const catalogue = await deps.catalogue();
  let sent = 0;
  for (const row of rows) {
    const expiresAt = new Date(row.expiresAt);
    const kind = dueReminderKind(expiresAt, config.certificateReminderDays, now);
    if (!kind) continue;
    const claimed = await db
      .insertInto("certificateReminder")
      .values({
        id: randomUUID(),
        certificateId: row.certificateId,
        kind,
        expiresAt: row.expiresAt,
        sentAt: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(["certificateId", "kind", "expiresAt"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!claimed) continue;
    try {
      await deps.mailer.sendEmail(
        row.email,
        "certificate-reminder",
        {
          firstName: row.firstName,
          courseTitle: catalogue.byId.get(row.courseId)?.card.title ?? row.courseId,
          certificateId: row.certificateId,
          kind,
          expiresAt: longDate(expiresAt),
          renewalClosesAt: longDate(renewalWindow(expiresAt).closesAt),
          renewUrl: `${config.appUrl}/certificates`,
          ...unsubscribeLinks(config, row.userId),
        },
        { link: `${config.appUrl}/certificates` },
      );
      sent++;
    } catch (error) {
      await db.deleteFrom("certificateReminder").where("id", "=", claimed.id).execute();
      deps.log.warn({ err: error, certificateId: row.certificateId, kind }, "certificate reminder not sent");
    }
  }
  return sent;
}
