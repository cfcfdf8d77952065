import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  // Content: questions per attempt, the final exam and per-course attempt rules (null: academy defaults).
  await db.schema
    .alterTable("quiz")
    .addColumn("draw", "integer", (c) => c.notNull().defaultTo(6))
    .execute();
  await db.schema.alterTable("course").addColumn("maxAttempts", "integer").execute();
  await db.schema.alterTable("course").addColumn("cooldownHours", "real").execute();
  await db.schema
    .createTable("courseExam")
    .addColumn("courseId", "text", (c) => c.primaryKey().references("course.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("draw", "integer", (c) => c.notNull())
    .addColumn("timeLimitMinutes", "integer")
    .addColumn("questions", "text", (c) => c.notNull())
    .execute();
  // Learners' records: one row per attempt, made when the questions are drawn and closed when graded.
  await db.schema
    .createTable("assessmentAttempt")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("assessmentId", "text", (c) => c.notNull())
    .addColumn("questions", "text", (c) => c.notNull())
    .addColumn("startedAt", t.timestamp, (c) => c.notNull())
    .addColumn("deadlineAt", t.timestamp)
    .addColumn("submittedAt", t.timestamp)
    .addColumn("score", "integer")
    .addColumn("passed", "integer")
    .execute();
  await db.schema
    .createIndex("assessmentAttempt_user_idx")
    .on("assessmentAttempt")
    .columns(["userId", "courseId", "assessmentId"])
    .execute();
  // At most one open attempt per learner and quiz, even when two first requests race.
  await sql`create unique index "assessmentAttempt_open_uq" on "assessmentAttempt" ("userId", "courseId", "assessmentId") where "submittedAt" is null`.execute(
    db,
  );
  await db.schema
    .createTable("attemptGrant")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("assessmentId", "text", (c) => c.notNull())
    .addColumn("grantedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("attemptGrant_user_idx")
    .on("attemptGrant")
    .columns(["userId", "courseId", "assessmentId"])
    .execute();
  await db.schema
    .createTable("learnerAccommodation")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("timeMultiplier", "real", (c) => c.notNull())
    .addColumn("updatedBy", "text", (c) => c.notNull())
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .execute();
}
