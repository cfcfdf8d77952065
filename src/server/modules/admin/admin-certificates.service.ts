import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ExpiringCertificate, ExtendCertificateInput } from "#shared/schemas/certificate-lifecycle.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { instantOf, lifecycleOf } from "../certificates/certificate-lifecycle.ts";
import { holderNameOf } from "../certificates/certificates.service.ts";
import { REMINDER_TOPIC } from "../certificates/reminder-unsubscribe.ts";
import { extendCertificate } from "../certificates/renewals.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

const DAY_MS = 86_400_000;
const LIMIT = 2000;

/**
 * Unrevoked certificates expiring within the next 30, 60 or 90 days, or expired in the last 90,
 * soonest first, each with the reminders sent for its current expiry date.
 */
export async function listExpiringCertificates(
  db: Kysely<DB>,
  catalogue: Catalogue,
  window: "30" | "60" | "90" | "expired",
  now = new Date(),
): Promise<ExpiringCertificate[]> {
  const [from, to] =
    window === "expired"
      ? [new Date(now.getTime() - 90 * DAY_MS), now]
      : [now, new Date(now.getTime() + Number(window) * DAY_MS)];
  const rows = await db
    .selectFrom("certificate")
    .innerJoin("user", "user.id", "certificate.userId")
    .leftJoin("emailOptOut", (join) =>
      join.onRef("emailOptOut.userId", "=", "certificate.userId").on("emailOptOut.topic", "=", REMINDER_TOPIC),
    )
    .select([
      "certificate.certificateId",
      "certificate.firstName",
      "certificate.lastName",
      "certificate.nameOrder",
      "certificate.courseId",
      "certificate.expiresAt",
      "certificate.revokedAt",
      "user.email",
      "emailOptOut.userId as optedOut",
    ])
    .where("certificate.revokedAt", "is", null)
    .where("certificate.expiresAt", ">", from.toISOString())
    .where("certificate.expiresAt", "<=", to.toISOString())
    .orderBy("certificate.expiresAt")
    .limit(LIMIT)
    .execute();
  const reminders = rows.length
    ? await db
        .selectFrom("certificateReminder")
        .select(["certificateId", "kind", "expiresAt"])
        .where(
          "certificateId",
          "in",
          rows.map((r) => r.certificateId),
        )
        .orderBy("sentAt")
        .execute()
    : [];
  return rows.map((r) => {
    const expiresAt = r.expiresAt;
    return {
      certificateId: r.certificateId,
      holderName: holderNameOf(r),
      email: r.email,
      courseId: r.courseId,
      courseTitle: catalogue.byId.get(r.courseId)?.card.title ?? r.courseId,
      expiresAt,
      lifecycle: lifecycleOf({ expiresAt: instantOf(expiresAt), revokedAt: r.revokedAt }, now),
      remindersSent: reminders
        .filter((m) => m.certificateId === r.certificateId && m.expiresAt === expiresAt)
        .map((m) => m.kind),
      unsubscribed: !!r.optedOut,
    };
  });
}

const csvCell = (value: string) => {
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function expiringCertificatesCsv(rows: ExpiringCertificate[]): string {
  const header = ["Certificate ID", "Holder", "E-mail", "Course", "Expires", "State", "Reminders sent", "Unsubscribed"];
  const lines = rows.map((r) =>
    [
      r.certificateId,
      r.holderName,
      r.email,
      r.courseTitle,
      r.expiresAt.slice(0, 10),
      r.lifecycle,
      r.remindersSent.join(" "),
      r.unsubscribed ? "yes" : "no",
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[header.join(","), ...lines].join("\r\n")}\r\n`;
}

/** An admin's extension of one certificate to a later date: audited, re-issues the credential, shown on the verify page. */
export async function adminExtendCertificate(
  db: Kysely<DB>,
  actor: CurrentUser,
  certificateId: string,
  input: ExtendCertificateInput,
) {
  const row = await db
    .selectFrom("certificate")
    .select(["expiresAt"])
    .where("certificateId", "=", certificateId)
    .executeTakeFirst();
  if (!row) throw notFound("Certificate not found.");
  // The new date keeps the time of day of the old expiry, so reminders keep their rhythm.
  const old = instantOf(row.expiresAt);
  const until = new Date(`${input.until}T${old.toISOString().slice(11)}`);
  if (until.getTime() <= old.getTime())
    throw badRequest(`Choose a date after the current expiry (${old.toISOString().slice(0, 10)}).`);
  if (until.getTime() > Date.now() + 10 * 365 * DAY_MS) throw badRequest("Choose a date within 10 years.");
  await extendCertificate(db, {
    certificateId,
    kind: "extension",
    newExpiresAt: until,
    actorId: actor.id,
    reason: input.reason,
    onApplied: (trx) =>
      recordAudit(trx, actor, "certificate.extend", certificateId, {
        from: old.toISOString(),
        to: until.toISOString(),
        reason: input.reason,
      }),
  });
  return { certificateId, expiresAt: until.toISOString() };
}
