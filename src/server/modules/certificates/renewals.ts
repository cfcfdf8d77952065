import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { RecertificationRules } from "#shared/schemas/certificate-lifecycle.ts";
import type { Quiz, QuizResult, QuizSubmission } from "#shared/schemas/learning.ts";
import type { Config } from "../../config.ts";
import type { DB, RenewalKind } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import type { HitCounter } from "../../limits/hit-counter.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { examRules, readOpenAttempt, startOrResumeAttempt, submitAttempt } from "../learning/assessment.service.ts";
import { RECERTIFICATION_ID, recertificationAssessment } from "../learning/assessment-access.ts";
import { canRenew, instantOf, renewalWindow, renewedExpiry } from "./certificate-lifecycle.ts";
import {
  type CertificateRow,
  currentCertificateQuery,
  REFUND_REVOKE_REASON,
  verifyUrl,
} from "./certificates.service.ts";

export interface RenewalDeps {
  db: Kysely<DB>;
  config: Config;
  log: { warn(obj: object, msg: string): void };
  /** Shared counters (the assessment's preview limits; unused by recertification). */
  counters: HitCounter;
}

const longDate = (d: Date) => d.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

export interface Extension {
  certificateId: string;
  kind: RenewalKind;
  newExpiresAt: Date;
  /** The passed recertification attempt: applying the same pass twice changes nothing. */
  attemptId?: string;
  actorId?: string;
  reason?: string;
  /** Continuing-education hours the renewed certificate carries (the course's hours now). */
  ceHours?: number | null;
  /** Runs in the same transaction once the extension is applied (an admin's audit line). */
  onApplied?: (trx: Transaction<DB>) => Promise<void>;
}

/**
 * Moves a certificate to a new expiry date and gives it a new credential id, so the next read of its
 * credential signs a new one with the new dates; the old credential is kept with the renewal row as
 * superseded (not revoked). One transaction; a guarded update, so racing renewals apply once.
 * Returns false when this attempt was already applied.
 */
export async function extendCertificate(db: Kysely<DB>, extension: Extension): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("certificate")
      .selectAll()
      .where("certificateId", "=", extension.certificateId)
      .executeTakeFirst();
    if (!row) throw notFound("No certificate has this ID.");
    if (row.revokedAt) throw conflict(revokedMessage(row));
    const old = await trx
      .selectFrom("credentialStatus")
      .select("credential")
      .where("certificateId", "=", row.certificateId)
      .executeTakeFirst();
    const now = new Date().toISOString();
    const inserted = await trx
      .insertInto("certificateRenewal")
      .values({
        id: randomUUID(),
        certificateId: row.certificateId,
        kind: extension.kind,
        previousExpiresAt: row.expiresAt,
        newExpiresAt: extension.newExpiresAt.toISOString(),
        renewedAt: now,
        attemptId: extension.attemptId ?? null,
        actorId: extension.actorId ?? null,
        reason: extension.reason ?? null,
        supersededCredentialId: `urn:uuid:${row.credentialUuid ?? row.id}`,
        supersededCredential: old?.credential ?? null,
      })
      .onConflict((oc) => oc.column("attemptId").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    const updated = await trx
      .updateTable("certificate")
      .set({
        expiresAt: extension.newExpiresAt.toISOString(),
        validFrom: now,
        credentialUuid: randomUUID(),
        ...(extension.ceHours !== undefined ? { ceHours: extension.ceHours } : {}),
      })
      .where("certificateId", "=", row.certificateId)
      .where("expiresAt", "=", row.expiresAt)
      .where("revokedAt", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict("The certificate changed meanwhile. Please try again.");
    await extension.onApplied?.(trx);
    return true;
  });
}

function revokedMessage(row: Pick<CertificateRow, "revokedReason">) {
  return row.revokedReason === REFUND_REVOKE_REASON
    ? "This certificate was revoked after a refund, so it cannot be renewed."
    : "This certificate was revoked, so it cannot be renewed.";
}

/** The learner's certificate for the course, if it may be renewed now; otherwise a refusal that says why. */
async function renewableCertificate(db: Kysely<DB>, user: CurrentUser, courseId: string): Promise<CertificateRow> {
  const row = await currentCertificateQuery(db, user.id, courseId).executeTakeFirst();
  if (!row) throw notFound("You hold no certificate for this course.");
  if (row.revokedAt) throw conflict(revokedMessage(row));
  const facts = { expiresAt: instantOf(row.expiresAt), revokedAt: row.revokedAt };
  if (!canRenew(facts)) {
    const { opensAt, closesAt } = renewalWindow(facts.expiresAt);
    throw conflict(
      Date.now() < opensAt.getTime()
        ? `Recertification opens on ${longDate(opensAt)}, 90 days before your certificate expires.`
        : `Recertification closed on ${longDate(closesAt)}, a year after your certificate expired. Complete the course again to earn a new certificate.`,
    );
  }
  return row;
}

/** GET /api/recertification/:courseId: the open recertification attempt; starts nothing. */
export async function readRecertification(
  deps: RenewalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Quiz> {
  await renewableCertificate(deps.db, user, course.card.id);
  return readOpenAttempt(deps, await recertificationAssessment(deps.db, user, course));
}

/** GET /api/recertification/:courseId/rules: the exam's rules for this learner and the certificate it renews; starts nothing. */
export async function recertificationRules(
  deps: RenewalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<RecertificationRules> {
  const row = await renewableCertificate(deps.db, user, course.card.id);
  const rules = await examRules(deps, await recertificationAssessment(deps.db, user, course));
  return {
    ...rules,
    certificateId: row.certificateId,
    courseTitle: course.card.title,
    expiresAt: instantOf(row.expiresAt).toISOString(),
  };
}

/** POST /api/recertification/:courseId/attempt: starts (or resumes) a timed recertification exam. */
export async function startRecertification(
  deps: RenewalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Quiz> {
  await renewableCertificate(deps.db, user, course.card.id);
  // A pass whose renewal did not complete (the process stopped in between) renews now; the
  // certificate is then outside its window and the refusal below says when the next one opens.
  await applyPassedRecertification(deps, user, course);
  await renewableCertificate(deps.db, user, course.card.id);
  // Recertification attempts are always recorded: the visitor key (for preview limits) goes unused.
  return startOrResumeAttempt(deps, await recertificationAssessment(deps.db, user, course), user.id);
}

/** POST /api/recertification/:courseId: grades the attempt; a pass renews the certificate. */
export async function submitRecertification(
  deps: RenewalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
  body: QuizSubmission,
): Promise<QuizResult> {
  await renewableCertificate(deps.db, user, course.card.id);
  const result = await submitAttempt(deps, await recertificationAssessment(deps.db, user, course), body);
  if (result.passed) await applyPassedRecertification(deps, user, course);
  return result;
}

/**
 * Renews the certificate with the learner's latest passed recertification attempt inside the renewal
 * window that has not renewed it yet. Safe to call again (the attempt id is unique among renewals).
 */
export async function applyPassedRecertification(deps: RenewalDeps, user: CurrentUser, course: CatalogueCourse) {
  const row = await renewableCertificate(deps.db, user, course.card.id);
  const expiresAt = instantOf(row.expiresAt);
  const passed = await deps.db
    .selectFrom("assessmentAttempt")
    .select(["id", "submittedAt"])
    .where("userId", "=", user.id)
    .where("courseId", "=", course.card.id)
    .where("assessmentId", "=", RECERTIFICATION_ID)
    .where("passed", "=", true)
    .where("submittedAt", ">=", renewalWindow(expiresAt).opensAt.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("certificateRenewal").select("id").whereRef("attemptId", "=", "assessmentAttempt.id"))),
    )
    .orderBy("submittedAt", "desc")
    .executeTakeFirst();
  if (!passed) return;
  const newExpiresAt = renewedExpiry(expiresAt, deps.config.certificateValidYears, new Date(passed.submittedAt!));
  await extendCertificate(deps.db, {
    certificateId: row.certificateId,
    kind: "recertification",
    newExpiresAt,
    attemptId: passed.id,
    ceHours: course.ceApproval?.hours ?? null,
    // The renewal's mail is queued with the renewal: both happen, or neither.
    onApplied: (trx) =>
      enqueueEmail(trx, {
        to: user.email,
        userId: user.id,
        template: "certificate-renewed",
        data: {
          firstName: row.firstName,
          courseTitle: course.card.title,
          certificateId: row.certificateId,
          expiresAt: longDate(newExpiresAt),
          verifyUrl: verifyUrl(deps.config, row.certificateId),
        },
      }).then(() => {}),
  });
}
