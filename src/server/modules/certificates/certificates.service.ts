import { randomBytes, randomUUID } from "node:crypto";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { BRAND_NAME } from "#shared/constants.ts";
import { creditStatement, formatLongDate, formatPersonName } from "#shared/format.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { Certificate, CertificateStatus, Verification } from "#shared/schemas/certificates.ts";
import { ASSESSED_BY_TEXT } from "#shared/schemas/practical.ts";
import type { Config } from "../../config.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import type { CertificateTable, DB } from "../../db/schema.ts";
import { conflict, forbidden, notFound } from "../../errors.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { Catalogue, CatalogueCourse, CourseCatalogue } from "../courses/course-catalogue.ts";
import { passedByCalibratedAssessor } from "../practical/practical.repository.ts";
import { computeCourseState, loadLearnerRecords, notCompleteMessage, recordsOn } from "../progress/learner-state.ts";
import { recordCourseCompleted } from "../progress/progress.service.ts";
import { canRenew, instantOf, lifecycleOf, renewalWindow } from "./certificate-lifecycle.ts";

/** The revocation reason a refund writes; only such a revocation lets a new paid enrolment earn a new certificate. */
export const REFUND_REVOKE_REASON = "refunded";
export const CERTIFICATE_NOT_FOUND = "This certificate could not be found. Make sure you have completed the course.";
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** 'HWA-' and 16 base32 characters: 80 random bits, so IDs cannot be guessed or enumerated. */
export function newCertificateId(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `HWA-${out}`;
}

export type CertificateRow = Selectable<CertificateTable>;

export function certificateStatus(
  row: Pick<CertificateRow, "revokedAt" | "expiresAt">,
  now = new Date(),
): CertificateStatus {
  const lifecycle = lifecycleOf({ expiresAt: instantOf(row.expiresAt), revokedAt: row.revokedAt }, now);
  return lifecycle === "expiring" ? "valid" : lifecycle;
}

export const verifyUrl = (config: Config, certificateId: string) => `${config.appUrl}/verify/${certificateId}`;

/** The name printed on a certificate: its stored names in the order stored with them at issue (or reissue). */
export const holderNameOf = (row: Pick<CertificateRow, "firstName" | "lastName" | "nameOrder">) =>
  formatPersonName(row.firstName, row.lastName, row.nameOrder);

const sameName = (row: Pick<CertificateRow, "firstName" | "lastName" | "nameOrder">, user: CurrentUser) =>
  row.firstName === user.firstName && row.lastName === user.lastName && row.nameOrder === user.nameOrder;

/**
 * What a certificate says about hours (decision 0052): CE hours only when the course's content names the
 * approving body and number (its `ceApproval`), otherwise the estimated study time, plainly not approved.
 * Hours stored on older certificates (the study hours, printed as CE hours then) claim nothing by themselves.
 */
/** The course version a certificate was earned on (the latest when that version is no longer stored). */
export async function earnedOn(catalogue: CourseCatalogue, row: { courseId: string; courseVersion: number }) {
  return (await catalogue.version(row.courseId, row.courseVersion)) ?? (await catalogue.course(row.courseId));
}

/** "Course version 2, published 3 December 2026": the version line a certificate states. */
export function versionLine(course: CatalogueCourse | undefined, version: number): string {
  const date =
    course?.version === version && course.publishedAt ? `, published ${formatLongDate(course.publishedAt)}` : "";
  return `Course version ${version}${date}`;
}

export function creditsOf(course: CatalogueCourse | undefined) {
  const ceApproval = course?.ceApproval ?? null;
  return {
    ceHours: ceApproval?.hours ?? null,
    creditStatement: creditStatement({
      ceApproval,
      studyHours: course?.studyHours ?? null,
      hasPractical: !!course?.practical,
    }),
  };
}

/**
 * What the certificate says of its practical (docs/decisions/0053): assessed by a calibrated assessor
 * against the published rubric, only when the holder's passing submission was marked under calibration
 * (every mark recorded since calibration began); never the assessor's name.
 */
export async function assessmentStatementOf(db: Kysely<DB>, userId: string, courseId: string) {
  return (await passedByCalibratedAssessor(db, userId, courseId)) ? ASSESSED_BY_TEXT : null;
}

function toCertificate(
  row: CertificateRow,
  course: { title: string; ceHours: number | null; creditStatement: string | null },
  config: Config,
  user: CurrentUser | undefined,
  assessmentStatement: string | null,
): Certificate {
  const facts = { expiresAt: instantOf(row.expiresAt), revokedAt: row.revokedAt };
  const window = renewalWindow(facts.expiresAt);
  const courseTitle = course.title;
  return {
    id: row.id,
    certificateId: row.certificateId,
    courseId: row.courseId,
    courseTitle,
    courseVersion: row.courseVersion,
    firstName: row.firstName,
    lastName: row.lastName,
    nameOrder: row.nameOrder,
    holderName: holderNameOf(row),
    completedAt: row.completedAt,
    expiresAt: row.expiresAt,
    issuedAt: row.issuedAt,
    status: certificateStatus(row),
    verifyUrl: verifyUrl(config, row.certificateId),
    nameDiffersFromProfile: !!user && !sameName(row, user),
    ceHours: course.ceHours,
    creditStatement: course.creditStatement,
    assessmentStatement,
    lifecycle: lifecycleOf(facts),
    canRenew: canRenew(facts),
    renewalOpensAt: window.opensAt.toISOString(),
    renewalClosesAt: window.closesAt.toISOString(),
  };
}

const courseTitleOf = (catalogue: Catalogue, courseId: string) => catalogue.byId.get(courseId)?.card.title ?? courseId;
const courseFacts = (catalogue: Catalogue, courseId: string) => ({
  title: courseTitleOf(catalogue, courseId),
  ...creditsOf(catalogue.byId.get(courseId)),
});

/**
 * The learner's certificate for a course: the unrevoked one if there is one, otherwise the latest
 * revoked one (so the learner still sees why it no longer counts).
 */
export function currentCertificateQuery(db: Kysely<DB> | Transaction<DB>, userId: string, courseId: string) {
  return db
    .selectFrom("certificate")
    .selectAll()
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .orderBy(sql`case when "revokedAt" is null then 0 else 1 end`)
    .orderBy("issuedAt", "desc")
    .limit(1);
}

/**
 * A revoked certificate is replaced only when a refund revoked it and the learner has enrolled again
 * (paid again) since. Any other revocation (an admin's, a dispute) stands, however often the learner asks.
 */
async function mayEarnAnew(trx: Transaction<DB>, revoked: CertificateRow): Promise<boolean> {
  if (!revoked.revokedAt || revoked.revokedReason !== REFUND_REVOKE_REASON) return false;
  const enrollment = await trx
    .selectFrom("enrollment")
    .select("createdAt")
    .where("userId", "=", revoked.userId)
    .where("courseId", "=", revoked.courseId)
    .executeTakeFirst();
  return !!enrollment && new Date(enrollment.createdAt).getTime() > new Date(revoked.revokedAt).getTime();
}

/**
 * Issues the learner's certificate once the whole course is complete (lessons, quizzes, final exam). The name comes from the profile
 * and the date from the server; repeated and parallel calls return the same certificate.
 */
export async function issueCertificate(
  db: Kysely<DB>,
  config: Config,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Certificate> {
  const records = recordsOn(course, await loadLearnerRecords(db, user.id, course.card.id));
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  const { courseComplete, missing } = computeCourseState(course, records);
  if (!courseComplete) throw conflict(notCompleteMessage("requesting your certificate", missing));
  const courseId = course.card.id;
  const row = await db.transaction().execute(async (trx) => {
    // No certificate for an account erased since its session was read (decision 0051).
    await requireLiveAccount(trx, user.id);
    const now = new Date();
    const nowIso = now.toISOString();
    await recordCourseCompleted(trx, user.id, courseId, nowIso);
    const progress = await trx
      .selectFrom("courseProgress")
      .select("completedAt")
      .where("userId", "=", user.id)
      .where("courseId", "=", courseId)
      .executeTakeFirstOrThrow();
    const existing = await currentCertificateQuery(trx, user.id, courseId).executeTakeFirst();
    if (existing && !(await mayEarnAnew(trx, existing))) return existing;
    // A certificate earned anew after a refund dates from now: the earlier completion belonged to the refunded purchase.
    const completedAt = new Date(existing ? nowIso : (progress.completedAt ?? nowIso));
    const expiresAt = new Date(completedAt);
    expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + config.certificateValidYears);
    await trx
      .insertInto("certificate")
      .values({
        id: randomUUID(),
        certificateId: newCertificateId(),
        userId: user.id,
        courseId,
        firstName: user.firstName,
        lastName: user.lastName,
        nameOrder: user.nameOrder,
        completedAt: completedAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
        issuedAt: nowIso,
        revokedAt: null,
        revokedReason: null,
        ceHours: course.ceApproval?.hours ?? null,
        courseVersion: course.version,
      })
      // Parallel calls meet on the one-unrevoked-certificate index; the loser takes the winner's row.
      .onConflict((oc) => oc.columns(["userId", "courseId"]).where("revokedAt", "is", null).doNothing())
      .execute();
    return currentCertificateQuery(trx, user.id, courseId).executeTakeFirstOrThrow();
  });
  return toCertificate(
    row,
    { title: course.card.title, ...creditsOf(course) },
    config,
    user,
    await assessmentStatementOf(db, user.id, courseId),
  );
}

export async function getOwnCertificate(
  db: Kysely<DB>,
  config: Config,
  catalogue: Catalogue,
  user: CurrentUser,
  courseId: string,
): Promise<Certificate> {
  const row = await currentCertificateQuery(db, user.id, courseId).executeTakeFirst();
  if (!row) throw notFound(CERTIFICATE_NOT_FOUND);
  return toCertificate(
    row,
    courseFacts(catalogue, courseId),
    config,
    user,
    await assessmentStatementOf(db, user.id, courseId),
  );
}

/** One certificate per course (the unrevoked one, else the latest), in the order given. */
export function preferCurrentPerCourse<T extends Pick<CertificateRow, "courseId" | "revokedAt" | "issuedAt">>(
  rows: T[],
): T[] {
  const rank = (r: T): [number, number] => [r.revokedAt ? 1 : 0, -new Date(r.issuedAt).getTime()];
  const best = new Map<string, T>();
  for (const r of rows) {
    const held = best.get(r.courseId);
    const [a, b] = rank(r);
    const [c, d]: [number, number] = held ? rank(held) : [2, 0];
    if (a < c || (a === c && b < d)) best.set(r.courseId, r);
  }
  return rows.filter((r) => best.get(r.courseId) === r);
}

export async function listOwnCertificates(
  db: Kysely<DB>,
  config: Config,
  catalogue: Catalogue,
  user: CurrentUser,
): Promise<Certificate[]> {
  const rows = await db
    .selectFrom("certificate")
    .selectAll()
    .where("userId", "=", user.id)
    .orderBy("completedAt", "desc")
    .execute();
  return Promise.all(
    preferCurrentPerCourse(rows).map(async (r) =>
      toCertificate(
        r,
        courseFacts(catalogue, r.courseId),
        config,
        user,
        await assessmentStatementOf(db, user.id, r.courseId),
      ),
    ),
  );
}

/** The owner's certificate by its public ID; anyone else gets the same 404 as for an unknown ID. */
export async function getOwnCertificateById(db: Kysely<DB>, user: CurrentUser, certificateId: string) {
  const row = await db
    .selectFrom("certificate")
    .selectAll()
    .where("certificateId", "=", certificateId)
    .executeTakeFirst();
  if (!row || row.userId !== user.id) throw notFound(CERTIFICATE_NOT_FOUND);
  return row;
}

/**
 * A certificate's public verification: what it says, and the course version it was earned on with
 * that version's date, outcomes and study hours (decision 0055), whatever was published after it.
 */
export async function verifyCertificate(
  db: Kysely<DB>,
  catalogue: CourseCatalogue,
  certificateId: string,
): Promise<Verification> {
  const row = await db
    .selectFrom("certificate")
    .selectAll()
    .where("certificateId", "=", certificateId)
    .executeTakeFirst();
  if (!row) throw notFound("No certificate has this ID.");
  const history = await db
    .selectFrom("certificateRenewal")
    .select(["kind", "renewedAt", "previousExpiresAt", "newExpiresAt"])
    .where("certificateId", "=", certificateId)
    .orderBy("renewedAt")
    .execute();
  const earned = await earnedOn(catalogue, row);
  return {
    certificateId: row.certificateId,
    holderName: holderNameOf(row),
    courseTitle: earned?.card.title ?? row.courseId,
    completedAt: row.completedAt,
    expiresAt: row.expiresAt,
    status: certificateStatus(row),
    revokedReason: row.revokedAt ? row.revokedReason : null,
    issuer: BRAND_NAME,
    ...creditsOf(earned),
    assessmentStatement: await assessmentStatementOf(db, row.userId, row.courseId),
    courseVersion: {
      version: row.courseVersion,
      publishedAt: earned?.version === row.courseVersion ? earned.publishedAt : null,
      learningOutcomes: earned?.learningOutcomes ?? [],
      studyHours: earned?.studyHours ?? null,
    },
    history: history.map((h) => ({
      kind: h.kind,
      at: h.renewedAt,
      previousExpiresAt: h.previousExpiresAt,
      newExpiresAt: h.newExpiresAt,
    })),
  };
}

/** Puts the learner's current profile name (and name order) on the certificate; the ID stays and the change is recorded. */
export async function reissueWithCurrentName(
  db: Kysely<DB>,
  config: Config,
  catalogue: Catalogue,
  user: CurrentUser,
  certificateId: string,
): Promise<Certificate> {
  const row = await getOwnCertificateById(db, user, certificateId);
  if (row.revokedAt) throw conflict("A revoked certificate cannot be reissued.");
  if (!sameName(row, user)) {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("certificateNameChange")
        .values({
          id: randomUUID(),
          certificateId,
          oldFirstName: row.firstName,
          oldLastName: row.lastName,
          newFirstName: user.firstName,
          newLastName: user.lastName,
          oldNameOrder: row.nameOrder,
          newNameOrder: user.nameOrder,
          changedAt: new Date().toISOString(),
        })
        .execute();
      await trx
        .updateTable("certificate")
        .set({ firstName: user.firstName, lastName: user.lastName, nameOrder: user.nameOrder })
        .where("certificateId", "=", certificateId)
        .execute();
    });
  }
  return getOwnCertificate(db, config, catalogue, user, row.courseId);
}

export type RevocationTarget = { certificateId: string } | { userId: string; courseId: string };

/**
 * The one way a certificate is revoked (admin action, refund, dispute). Runs in the caller's
 * transaction; revoking twice changes nothing. Returns the IDs it revoked now.
 */
export async function revokeCertificate(
  trx: Kysely<DB> | Transaction<DB>,
  target: RevocationTarget,
  reason: string,
): Promise<string[]> {
  const revoked = await trx
    .updateTable("certificate")
    .set({ revokedAt: new Date().toISOString(), revokedReason: reason })
    .$if("certificateId" in target, (q) =>
      q.where("certificateId", "=", (target as { certificateId: string }).certificateId),
    )
    .$if("userId" in target, (q) => {
      const t = target as { userId: string; courseId: string };
      return q.where("userId", "=", t.userId).where("courseId", "=", t.courseId);
    })
    .where("revokedAt", "is", null)
    .returning("certificateId")
    .execute();
  return revoked.map((r) => r.certificateId);
}
