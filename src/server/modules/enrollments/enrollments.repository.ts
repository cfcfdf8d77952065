/**
 * The enrolment table's one writer: checkout, refunds and admin enrol or end access through these
 * functions, passing their transaction when they have one (docs/architecture.md, Table owners).
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { requireLiveAccount } from "../../db/account-lock.ts";
import type { DB } from "../../db/schema.ts";

export async function listEnrollments(db: Kysely<DB>, userId: string) {
  const rows = await db
    .selectFrom("enrollment")
    .select(["courseId", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((r) => ({ courseId: r.courseId, createdAt: r.createdAt }));
}

export async function isEnrolled(db: Kysely<DB>, userId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom("enrollment")
    .select("id")
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .executeTakeFirst();
  return !!row;
}

/**
 * Creates the enrolment unless it exists; true when a new one was written. Safe under parallel calls.
 * An erased account is refused (401) under its lock, inside the caller's transaction (decision 0051).
 */
export async function createEnrollment(
  db: Kysely<DB>,
  options: { userId: string; courseId: string; source: string },
): Promise<boolean> {
  await requireLiveAccount(db, options.userId);
  const result = await db
    .insertInto("enrollment")
    .values({
      id: randomUUID(),
      userId: options.userId,
      courseId: options.courseId,
      source: options.source,
      createdAt: new Date().toISOString(),
      // A new enrolment starts on the course's latest version line (decision 0055).
      courseLine: sql<number>`coalesce((select line from "courseVersion" where "courseId" = ${options.courseId} order by version desc limit 1), 1)`,
    })
    .onConflict((oc) => oc.columns(["userId", "courseId"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * Moves the learner's enrolment to `line` (the latest version's, decision 0055) under the account's
 * erasure lock, in the caller's transaction. False when there is no enrolment; repeating it changes nothing.
 */
export async function moveEnrollmentToLine(
  db: Kysely<DB>,
  options: { userId: string; courseId: string; line: number },
): Promise<boolean> {
  await requireLiveAccount(db, options.userId);
  const row = await db
    .updateTable("enrollment")
    .set({ courseLine: options.line })
    .where("userId", "=", options.userId)
    .where("courseId", "=", options.courseId)
    .returning("courseLine")
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends the learner's access to the course (a refund); nothing happens when there is none. */
export async function deleteEnrollment(db: Kysely<DB>, userId: string, courseId: string): Promise<void> {
  await db.deleteFrom("enrollment").where("userId", "=", userId).where("courseId", "=", courseId).execute();
}
