import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  // An enrolment for an e-mail with no account yet; it applies when that e-mail signs up.
  await db.schema
    .createTable("pendingEnrollment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("appliedAt", t.timestamp)
    .addUniqueConstraint("pendingEnrollment_email_course_uq", ["email", "courseId"])
    .execute();
  await db.schema
    .createTable("auditLog")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("actorId", "text")
    .addColumn("actorEmail", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auditLog_createdAt_idx").on("auditLog").column("createdAt").execute();
}
