import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Who teaches or assesses which course (docs/decisions/0053): one row per person, course and staff
 * role, written by an admin. An instructor or assessor works only on the courses they are assigned to.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("courseStaff")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull().modifyEnd(sql`check ("role" in ('instructor', 'assessor'))`))
    .addColumn("assignedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("courseStaff_pk", ["userId", "courseId", "role"])
    .execute();
  // "Who assesses this course?"
  await db.schema.createIndex("courseStaff_course_idx").on("courseStaff").columns(["courseId", "role"]).execute();
}
