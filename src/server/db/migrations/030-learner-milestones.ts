import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * The course funnel's milestones (docs/decisions/0045), kept by the `analytics-rollup` job:
 * - `learnerMilestone`: per learner and course with any lesson completion or graded attempt in it, whether a
 *   lesson was completed, the final exam passed, and the modules passed (`modulesPassed`, ",alpha,beta,").
 * - `learnerMilestoneCourse`: per course, the shape of its modules the rows were computed against and the
 *   time they hold every learner's activity up to.
 * The course-and-time indexes answer "who was active in this course since ..." from the index alone: the
 * learners whose row may be stale and those not idle for the stalls.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("learnerMilestone")
    .addColumn("courseId", "text", (c) => c.notNull())
    // An erasure that commits while a turn computes the learner's row leaves no row behind: the
    // turn's insert waits for it and fails, or the erasure's delete removes what the turn wrote.
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("started", "integer", (c) => c.notNull())
    .addColumn("examPassed", "integer", (c) => c.notNull())
    .addColumn("modulesPassed", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("learnerMilestone_pk", ["courseId", "userId"])
    .execute();
  await db.schema.createIndex("learnerMilestone_user_idx").on("learnerMilestone").column("userId").execute();
  await db.schema
    .createTable("learnerMilestoneCourse")
    .addColumn("courseId", "text", (c) => c.primaryKey())
    .addColumn("shape", "text", (c) => c.notNull())
    .addColumn("foldedUntil", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("lessonCompletion_course_completedAt_idx")
    .on("lessonCompletion")
    .columns(["courseId", "completedAt", "userId"])
    .execute();
  await db.schema
    .createIndex("quizAttempt_course_createdAt_idx")
    .on("quizAttempt")
    .columns(["courseId", "createdAt", "userId"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("quizAttempt_course_createdAt_idx").ifExists().execute();
  await db.schema.dropIndex("lessonCompletion_course_completedAt_idx").ifExists().execute();
  for (const table of ["learnerMilestoneCourse", "learnerMilestone"])
    await db.schema.dropTable(table).ifExists().execute();
}
