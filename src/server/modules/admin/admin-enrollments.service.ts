import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { BulkRowResult } from "#shared/schemas/admin.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import { EMAIL_MAX_LENGTH, emailAddressSchema } from "#shared/schemas/email.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { createEnrollment } from "../enrollments/enrollments.repository.ts";

type Outcome = "enrolled" | "pending" | "already-enrolled" | "already-pending";
const emailSchema = emailAddressSchema;

const MESSAGES: Record<Outcome, (email: string, title: string) => string> = {
  enrolled: (email, title) => `${email} has been enrolled in ${title}.`,
  pending: (email, title) =>
    `${email} has no account yet. The enrollment in ${title} is saved and applies once they sign up with this e-mail and verify it.`,
  "already-enrolled": (email, title) => `${email} is already enrolled in ${title}.`,
  "already-pending": (email, title) =>
    `${email} already has a pending enrollment in ${title}; it applies once they sign up and verify the address.`,
};

const comingSoonMessage = (title: string) =>
  `${title} is coming soon and has no lessons yet, so nobody can be enrolled in it until it opens.`;

/** Enrols an account by e-mail, or records a pending enrolment when the e-mail has no account yet. */
export async function enrolByEmail(
  db: Kysely<DB>,
  catalogue: Catalogue,
  actor: CurrentUser,
  rawEmail: string,
  courseId: string,
) {
  const email = rawEmail.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) throw badRequest("Please enter a valid email address.");
  const course = catalogue.byId.get(courseId);
  if (!course) throw badRequest(`There is no course with the id '${courseId}'.`);
  if (course.card.comingSoon) throw badRequest(comingSoonMessage(course.card.title));
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    const now = new Date().toISOString();
    const user = await trx.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
    let result: Outcome;
    if (user) {
      const inserted = await createEnrollment(trx, { userId: user.id, courseId, source: "admin" });
      result = inserted ? "enrolled" : "already-enrolled";
    } else {
      const inserted = await trx
        .insertInto("pendingEnrollment")
        .values({ id: randomUUID(), email, courseId, createdBy: actor.id, createdAt: now, appliedAt: null })
        .onConflict((oc) => oc.columns(["email", "courseId"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      result = inserted ? "pending" : "already-pending";
    }
    if (result === "enrolled" || result === "pending")
      await recordAudit(trx, actor, result === "enrolled" ? "enrollment.create" : "enrollment.pending", email, {
        courseId,
      });
    return result;
  });
  return {
    outcome,
    message: MESSAGES[outcome](email, course.card.title),
    success: outcome === "enrolled" || outcome === "pending",
  };
}

/**
 * Once the address is proven (verification link or password reset), never at sign-up: whoever signs up
 * first with an address an admin enrolled is not yet its owner. Turns its pending enrolments into real ones.
 */
export async function applyPendingEnrollments(db: Kysely<DB>, user: { id: string; email: string }) {
  const email = user.email.toLowerCase();
  await db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom("pendingEnrollment")
      .selectAll()
      .where("email", "=", email)
      .where("appliedAt", "is", null)
      .execute();
    const now = new Date().toISOString();
    for (const p of pending) {
      await createEnrollment(trx, { userId: user.id, courseId: p.courseId, source: "admin" });
      await trx.updateTable("pendingEnrollment").set({ appliedAt: now }).where("id", "=", p.id).execute();
    }
  });
}

/** One CSV line into trimmed cells: commas split, double quotes group, "" is a quote inside quotes. */
export function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
}

/** Enrols every row of an `email,courseId` CSV on its own: a bad row never stops the good ones. */
export async function bulkEnrol(db: Kysely<DB>, catalogue: Catalogue, actor: CurrentUser, csv: string) {
  const rows: BulkRowResult[] = [];
  const lines = csv.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    if (!raw.trim()) continue;
    const [email = "", courseId = ""] = parseCsvLine(raw);
    if (index === 0 && /^e-?mail$/i.test(email) && /^course/i.test(courseId)) continue; // header row
    const line = index + 1;
    if (!emailSchema.safeParse(email.toLowerCase()).success) {
      const tooLong = email.length > EMAIL_MAX_LENGTH;
      const shown = tooLong ? `${email.slice(0, 40)}…` : email;
      rows.push({
        line,
        email: shown,
        courseId,
        result: "invalid-email",
        message: tooLong
          ? `'${shown}' is longer than an e-mail address can be (${EMAIL_MAX_LENGTH} characters).`
          : `'${email}' is not a valid e-mail address.`,
      });
      continue;
    }
    if (!catalogue.byId.has(courseId)) {
      rows.push({
        line,
        email,
        courseId,
        result: "unknown-course",
        message: `There is no course with the id '${courseId}'.`,
      });
      continue;
    }
    const course = catalogue.byId.get(courseId);
    if (course?.card.comingSoon) {
      rows.push({ line, email, courseId, result: "coming-soon", message: comingSoonMessage(course.card.title) });
      continue;
    }
    const r = await enrolByEmail(db, catalogue, actor, email, courseId);
    rows.push({ line, email: email.toLowerCase(), courseId, result: r.outcome, message: r.message });
  }
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.result] = (counts[r.result] ?? 0) + 1;
  await recordAudit(db, actor, "enrollment.bulk", `${rows.length} rows`, counts);
  return { rows, counts };
}
