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

/** Submissions waiting for a review, oldest first. */
export async function listQueue(db: Db) {
  const rows = await db
    .selectFrom("practicalSubmission")
    .select(["id", "courseId", "attempt", "status", "submittedAt", "claimedBy"])
    .where("status", "in", ["submitted", "in-review"])
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
      reviewedBy: assessorId,
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
