import type { Kysely, Transaction } from "kysely";
import type { PracticalSubmission } from "#shared/schemas/practical.ts";
import type { DB, PracticalStatus } from "../../db/schema.ts";

type Db = Kysely<DB> | Transaction<DB>;

export interface StoredFile {
  id: string;
  submissionId: number;
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
}

export interface StoredSubmission {
  number: number;
  userId: string;
  courseId: string;
  attempt: number;
  body: string;
  status: PracticalStatus;
  submittedAt: string;
  claimedBy: string | null;
  claimedAt: string | null;
  markingStage: "second" | "third" | null;
  reviewedAt: string | null;
  scores: { criterionId: string; points: number; comment: string }[] | null;
  feedback: string | null;
  points: number | null;
  maxPoints: number | null;
  files: StoredFile[];
}

const COLUMNS = [
  "id",
  "userId",
  "courseId",
  "attempt",
  "body",
  "status",
  "submittedAt",
  "claimedBy",
  "claimedAt",
  "markingStage",
  "reviewedAt",
  "scores",
  "feedback",
  "points",
  "maxPoints",
] as const;

async function withFiles(db: Db, rows: { id: number }[]): Promise<Map<number, StoredFile[]>> {
  const byId = new Map<number, StoredFile[]>(rows.map((r) => [r.id, []]));
  if (rows.length === 0) return byId;
  const files = await db
    .selectFrom("practicalFile")
    .selectAll()
    .where(
      "submissionId",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("name")
    .orderBy("id")
    .execute();
  for (const f of files) byId.get(f.submissionId)?.push(f);
  return byId;
}

type Row = Pick<DB["practicalSubmission"], Exclude<(typeof COLUMNS)[number], "id">> & { id: number };

function toStored(row: Row, files: StoredFile[]): StoredSubmission {
  return {
    number: Number(row.id),
    userId: row.userId,
    courseId: row.courseId,
    attempt: row.attempt,
    body: row.body,
    status: row.status,
    submittedAt: row.submittedAt,
    claimedBy: row.claimedBy,
    claimedAt: row.claimedAt,
    markingStage: row.markingStage,
    reviewedAt: row.reviewedAt,
    scores: row.scores ? JSON.parse(row.scores) : null,
    feedback: row.feedback,
    points: row.points,
    maxPoints: row.maxPoints,
    files,
  };
}

/** A learner's submissions for a course, oldest first, with their files. */
export async function listSubmissions(db: Db, userId: string, courseId: string): Promise<StoredSubmission[]> {
  const rows = (await db
    .selectFrom("practicalSubmission")
    .select(COLUMNS)
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .orderBy("attempt")
    .execute()) as Row[];
  const files = await withFiles(db, rows);
  return rows.map((r) => toStored(r, files.get(r.id) ?? []));
}

export async function findSubmission(db: Db, number: number): Promise<StoredSubmission | null> {
  const row = (await db
    .selectFrom("practicalSubmission")
    .select(COLUMNS)
    .where("id", "=", number)
    .executeTakeFirst()) as Row | undefined;
  if (!row) return null;
  return toStored(row, (await withFiles(db, [row])).get(row.id) ?? []);
}

export async function countGrants(db: Db, userId: string, courseId: string): Promise<number> {
  const row = await db
    .selectFrom("practicalGrant")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Submissions waiting for a review, oldest first; of the given courses only, when given. */
export async function listQueue(db: Db, courseIds: string[] | null) {
  const rows = await db
    .selectFrom("practicalSubmission")
    .select(["id", "courseId", "attempt", "status", "submittedAt", "claimedBy", "markingStage"])
    .where("status", "in", ["submitted", "in-review"])
    .$if(courseIds !== null, (qb) => qb.where("courseId", "in", courseIds ?? []))
    .orderBy("submittedAt")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({ ...r, number: Number(r.id) }));
}

export async function insertSubmission(
  trx: Db,
  row: { userId: string; courseId: string; attempt: number; body: string; now: string; courseVersion: number },
): Promise<number> {
  const inserted = await trx
    .insertInto("practicalSubmission")
    .values({
      userId: row.userId,
      courseId: row.courseId,
      attempt: row.attempt,
      body: row.body,
      status: "submitted",
      submittedAt: row.now,
      consentedAt: row.now,
      redFlagConfirmedAt: row.now,
      courseVersion: row.courseVersion,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function insertFiles(trx: Db, files: StoredFile[]) {
  if (files.length) await trx.insertInto("practicalFile").values(files).execute();
}

/** Claims a waiting submission for one assessor; false when anyone (on any instance) claimed it first. */
export async function claimSubmission(db: Db, number: number, assessorId: string, now: string): Promise<boolean> {
  const updated = await db
    .updateTable("practicalSubmission")
    .set({ claimedBy: assessorId, claimedAt: now, status: "in-review" })
    .where("id", "=", number)
    .where("status", "=", "submitted")
    .where("claimedBy", "is", null)
    .where("userId", "!=", assessorId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Gives a claimed submission back to the queue; false when it is no longer in review. */
export async function releaseSubmission(db: Db, number: number, assessorId: string | null): Promise<boolean> {
  let query = db
    .updateTable("practicalSubmission")
    .set({ claimedBy: null, claimedAt: null, status: "submitted" })
    .where("id", "=", number)
    .where("status", "=", "in-review");
  if (assessorId) query = query.where("claimedBy", "=", assessorId);
  const updated = await query.executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Gives every submission one assessor holds back to the queue (their role was taken away, or their account erased). */
export async function releaseClaimsOf(db: Db, assessorId: string): Promise<number> {
  const updated = await db
    .updateTable("practicalSubmission")
    .set({ claimedBy: null, claimedAt: null, status: "submitted" })
    .where("status", "=", "in-review")
    .where("claimedBy", "=", assessorId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

/** Records the review; false unless the submission is still in review by this assessor (a double submit loses). */
export async function recordReview(
  trx: Db,
  number: number,
  assessorId: string,
  review: {
    status: "passed" | "resubmit";
    /** Whose mark is the result: the first marker's when a second agreed, else the one marking now. */
    reviewedBy: string;
    scores: string;
    feedback: string;
    points: number;
    maxPoints: number;
    now: string;
  },
): Promise<boolean> {
  const updated = await trx
    .updateTable("practicalSubmission")
    .set({
      status: review.status,
      reviewedBy: review.reviewedBy,
      markingStage: null,
      reviewedAt: review.now,
      scores: review.scores,
      feedback: review.feedback,
      points: review.points,
      maxPoints: review.maxPoints,
    })
    .where("id", "=", number)
    .where("status", "=", "in-review")
    .where("claimedBy", "=", assessorId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function findFile(db: Db, fileId: string) {
  return db
    .selectFrom("practicalFile")
    .innerJoin("practicalSubmission", "practicalSubmission.id", "practicalFile.submissionId")
    .select([
      "practicalFile.id",
      "practicalFile.name",
      "practicalFile.contentType",
      "practicalFile.storageKey",
      "practicalFile.submissionId",
      "practicalSubmission.userId",
    ])
    .where("practicalFile.id", "=", fileId)
    .executeTakeFirst();
}

export function reviewOf(s: StoredSubmission): PracticalSubmission["review"] {
  if (!s.reviewedAt || !s.scores || (s.status !== "passed" && s.status !== "resubmit")) return null;
  return {
    decision: s.status === "passed" ? "pass" : "resubmit",
    scores: s.scores,
    feedback: s.feedback ?? "",
    points: s.points ?? 0,
    maxPoints: s.maxPoints ?? 0,
    reviewedAt: s.reviewedAt,
  };
}

/** One assessor's mark of a submission (docs/decisions/0053): round 1 first, 2 blind second, 3 deciding. */
export interface StoredMark {
  submissionId: number;
  courseId: string;
  round: number;
  assessorId: string;
  decision: "pass" | "resubmit";
  scores: { criterionId: string; points: number; comment: string }[];
  feedback: string;
  points: number;
  maxPoints: number;
  claimedAt: string;
  markedAt: string;
}

/** Records a mark; a second mark of the same round (a double submit, a race) is a unique violation. */
export async function insertMark(trx: Db, mark: StoredMark) {
  await trx
    .insertInto("practicalMark")
    .values({ ...mark, scores: JSON.stringify(mark.scores) })
    .execute();
}

const MARK_COLUMNS = [
  "submissionId",
  "courseId",
  "round",
  "assessorId",
  "decision",
  "scores",
  "feedback",
  "points",
  "maxPoints",
  "claimedAt",
  "markedAt",
] as const;

const toMark = (row: Omit<StoredMark, "scores"> & { scores: string }): StoredMark => ({
  ...row,
  submissionId: Number(row.submissionId),
  scores: JSON.parse(row.scores),
});

/** A submission's marks, in round order. */
export async function listMarks(db: Db, submissionId: number): Promise<StoredMark[]> {
  const rows = await db
    .selectFrom("practicalMark")
    .select(MARK_COLUMNS)
    .where("submissionId", "=", submissionId)
    .orderBy("round")
    .execute();
  return rows.map(toMark);
}

/** Every mark of a course's submissions (for the agreement report), oldest first. */
export async function listCourseMarks(db: Db, courseId: string): Promise<StoredMark[]> {
  const rows = await db
    .selectFrom("practicalMark")
    .select(MARK_COLUMNS)
    .where("courseId", "=", courseId)
    .orderBy("markedAt")
    .orderBy("id")
    .execute();
  return rows.map(toMark);
}

/** Which of these submissions the assessor has marked. */
export async function markedSubmissionsOf(db: Db, assessorId: string, numbers: number[]): Promise<Set<number>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .selectFrom("practicalMark")
    .select("submissionId")
    .where("assessorId", "=", assessorId)
    .where("submissionId", "in", numbers)
    .execute();
  return new Set(rows.map((r) => Number(r.submissionId)));
}

/** Sends a marked submission back to the queue for its next mark; false unless still in review by this assessor. */
export async function handOffSubmission(
  trx: Db,
  number: number,
  assessorId: string,
  stage: "second" | "third",
): Promise<boolean> {
  const updated = await trx
    .updateTable("practicalSubmission")
    .set({ status: "submitted", claimedBy: null, claimedAt: null, markingStage: stage })
    .where("id", "=", number)
    .where("status", "=", "in-review")
    .where("claimedBy", "=", assessorId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Whether the learner passed the course's practical on a mark recorded under calibration (docs/decisions/0053). */
export async function passedByCalibratedAssessor(db: Db, userId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom("practicalSubmission")
    .innerJoin("practicalMark", "practicalMark.submissionId", "practicalSubmission.id")
    .select("practicalSubmission.id")
    .where("practicalSubmission.userId", "=", userId)
    .where("practicalSubmission.courseId", "=", courseId)
    .where("practicalSubmission.status", "=", "passed")
    .executeTakeFirst();
  return row !== undefined;
}
