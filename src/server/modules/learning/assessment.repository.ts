import { type Insertable, type Kysely, sql, type Transaction } from "kysely";
import { engineOf } from "../../db/database.ts";
import { durableWrite, preparedQuery, writeTransaction } from "../../db/fast-paths.ts";
import type { DB, QuizAttemptTable } from "../../db/schema.ts";
import { accommodationRow } from "../progress/accommodation.ts";
import { type BesideRow, learnerStatement } from "../progress/learner-state.ts";
import type { DrawnQuestion } from "./draw.ts";

type Db = Kysely<DB> | Transaction<DB>;

export interface StoredAttempt {
  id: string;
  questions: DrawnQuestion[];
  startedAt: string;
  deadlineAt: string | null;
  submittedAt: string | null;
  score: number | null;
  ordinal: number;
}

/** Compiled once per database (a named statement on PostgreSQL): every quiz start and submission reads them. */
const attemptRows = preparedQuery(
  (db, userId: string, courseId: string, assessmentId: string) =>
    db
      .selectFrom("assessmentAttempt")
      .select(["id", "questions", "startedAt", "deadlineAt", "submittedAt", "score", "ordinal"])
      .where("userId", "=", userId)
      .where("courseId", "=", courseId)
      .where("assessmentId", "=", assessmentId)
      .orderBy("startedAt"),
  3,
);
const grantRows = preparedQuery(
  (db, userId: string, courseId: string, assessmentId: string) =>
    db
      .selectFrom("attemptGrant")
      .select("createdAt")
      .where("userId", "=", userId)
      .where("courseId", "=", courseId)
      .where("assessmentId", "=", assessmentId),
  3,
);

export async function listAttempts(
  db: Db,
  userId: string,
  courseId: string,
  assessmentId: string,
): Promise<StoredAttempt[]> {
  const rows = await attemptRows(db, userId, courseId, assessmentId);
  return rows.map((r) => ({
    id: r.id,
    questions: JSON.parse(r.questions) as DrawnQuestion[],
    startedAt: r.startedAt,
    deadlineAt: r.deadlineAt,
    submittedAt: r.submittedAt,
    score: r.score,
    ordinal: r.ordinal ?? 0,
  }));
}

export async function listGrantTimes(db: Db, userId: string, courseId: string, assessmentId: string) {
  const rows = await grantRows(db, userId, courseId, assessmentId);
  return rows.map((r) => new Date(r.createdAt));
}

/** What starting or submitting an attempt reads of the learner, once per request. */
export interface AttemptReads {
  attempts: StoredAttempt[];
  grants: Date[];
  timeMultiplier: number;
}

/**
 * PostgreSQL: the session, the records and the learner's attempts at one assessment (`key`), its
 * grants and their time multiplier, in one statement (decision 0047). A quiz GET that resumes its
 * attempt sends nothing else.
 */
export const sessionWithAttempts = learnerStatement(
  (userId, courseId, assessmentId) => sql`
    select 'a' as tag, "startedAt" as at, id as seq,
        json_build_object('id', id, 'questions', questions, 'deadlineAt', "deadlineAt",
          'submittedAt', "submittedAt", 'score', score, 'ordinal', ordinal) as doc
      from "assessmentAttempt"
      where "userId" = ${userId} and "courseId" = ${courseId} and "assessmentId" = ${assessmentId}
    union all
    select 'g', "createdAt", id, null from "attemptGrant"
      where "userId" = ${userId} and "courseId" = ${courseId} and "assessmentId" = ${assessmentId}
    union all
    ${accommodationRow(userId)}`,
);

/** A timestamp read inside a `json` document (PostgreSQL's text form), as the app's ISO string. */
const isoOf = (value: unknown) => (value == null ? null : new Date(String(value)).toISOString());

/** The rows `sessionWithAttempts` read beside the records, in the shapes `listAttempts` gives. */
export function attemptReadsOf(rows: BesideRow[]): AttemptReads {
  const reads: AttemptReads = { attempts: [], grants: [], timeMultiplier: 1 };
  for (const row of rows) {
    const doc = row.doc as Record<string, unknown>;
    if (row.tag === "g") reads.grants.push(new Date(row.at!));
    else if (row.tag === "m") reads.timeMultiplier = Number(doc.timeMultiplier);
    else if (row.tag === "a")
      reads.attempts.push({
        id: String(doc.id),
        questions: JSON.parse(String(doc.questions)) as DrawnQuestion[],
        startedAt: row.at!,
        deadlineAt: isoOf(doc.deadlineAt),
        submittedAt: isoOf(doc.submittedAt),
        score: doc.score == null ? null : Number(doc.score),
        ordinal: Number(doc.ordinal ?? 0),
      });
  }
  return reads;
}

/**
 * Opens attempt number `ordinal` unless one is already open or that number is taken (unique indexes):
 * the caller passes the number after the last attempt it based its allowance on, so an attempt another
 * instance added in the meantime makes this insert do nothing. True when this call opened it.
 */
export async function insertOpenAttempt(
  db: Db,
  row: {
    id: string;
    userId: string;
    courseId: string;
    assessmentId: string;
    questions: DrawnQuestion[];
    startedAt: string;
    deadlineAt: string | null;
    ordinal: number;
    courseVersion: number;
  },
): Promise<boolean> {
  const result = await db
    .insertInto("assessmentAttempt")
    .values({ ...row, questions: JSON.stringify(row.questions), submittedAt: null, score: null, passed: null })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Closes an open attempt with its result; false when it was already closed (a parallel submission won). */
export async function closeAttempt(
  trx: Db,
  id: string,
  result: { submittedAt: string; score: number; passed: boolean },
): Promise<boolean> {
  const updated = await trx
    .updateTable("assessmentAttempt")
    .set({ submittedAt: result.submittedAt, score: result.score, passed: result.passed })
    .where("id", "=", id)
    .where("submittedAt", "is", null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** The graded attempt's record; `passed` is decided once, by grading, and stored here. */
export async function recordQuizAttempt(trx: Db, row: Insertable<QuizAttemptTable>) {
  await trx.insertInto("quizAttempt").values(row).execute();
}

type GradedAttempt = Insertable<QuizAttemptTable> & {
  score: number;
  passed: boolean;
  createdAt: string;
  courseVersion: number;
};

/**
 * Closes the open attempt `row.id` with its result and stores the graded attempt, as one atomic
 * write, durable when it resolves; false when the attempt was already closed (a parallel submission
 * won), and then nothing is written. On PostgreSQL one autocommitted statement (decision 0047); on
 * SQLite, and with `also` (more writes for the same transaction), a transaction.
 */
export async function storeGradedAttempt(
  db: Kysely<DB>,
  row: GradedAttempt,
  also?: (trx: Transaction<DB>) => Promise<void>,
): Promise<boolean> {
  if (!also && engineOf(db) === "postgres") {
    const result = await durableWrite(db, (handle) => closeAndRecord(row).execute(handle));
    return Number(result.numAffectedRows ?? 0) === 1;
  }
  return writeTransaction(db, async (trx) => {
    if (!(await closeAttempt(trx, row.id, { submittedAt: row.createdAt, score: row.score, passed: row.passed })))
      return false;
    await also?.(trx);
    await recordQuizAttempt(trx, row);
    return true;
  });
}

/** `closeAttempt` and `recordQuizAttempt` as one PostgreSQL statement: the record is inserted only when the update closed the attempt. */
const closeAndRecord = (row: GradedAttempt) => sql`
  with closed as (
    update "assessmentAttempt" set "submittedAt" = ${row.createdAt}, score = ${row.score}, passed = ${row.passed}
      where id = ${row.id} and "userId" = ${row.userId} and "submittedAt" is null
      returning id, "userId", "courseId", "assessmentId", score, passed, "submittedAt")
  insert into "quizAttempt" (id, "userId", "courseId", "moduleId", score, "correctCount", total, passed, answers, "createdAt", "courseVersion")
    select id, "userId", "courseId", "assessmentId", score, cast(${row.correctCount} as integer),
        cast(${row.total} as integer), passed, ${row.answers}, "submittedAt", cast(${row.courseVersion} as integer)
      from closed`;
