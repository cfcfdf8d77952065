import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  // One row per completed lesson: parallel completions insert different rows, so none is lost.
  await db.schema
    .createTable("lessonCompletion")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("lessonId", "text", (c) => c.notNull())
    .addColumn("completedAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("lessonCompletion_pk", ["userId", "courseId", "lessonId"])
    .execute();
  // Every graded attempt is kept; the best score decides whether the module is complete.
  await db.schema
    .createTable("quizAttempt")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("moduleId", "text", (c) => c.notNull())
    .addColumn("score", "integer", (c) => c.notNull())
    .addColumn("correctCount", "integer", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("passed", "integer", (c) => c.notNull())
    .addColumn("answers", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("quizAttempt_user_course_idx")
    .on("quizAttempt")
    .columns(["userId", "courseId", "moduleId"])
    .execute();
  await db.schema
    .createTable("courseProgress")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("isCompleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("completedAt", t.timestamp)
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("courseProgress_user_course_uq", ["userId", "courseId"])
    .execute();
}
