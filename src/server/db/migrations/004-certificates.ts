import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("certificate")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificateId", "text", (c) => c.notNull().unique())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("firstName", "text", (c) => c.notNull())
    .addColumn("lastName", "text", (c) => c.notNull())
    .addColumn("completedAt", t.timestamp, (c) => c.notNull())
    .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
    .addColumn("issuedAt", t.timestamp, (c) => c.notNull())
    .addColumn("revokedAt", t.timestamp)
    .addColumn("revokedReason", "text")
    // One certificate per learner and course: parallel issue calls cannot create two.
    .addUniqueConstraint("certificate_user_course_uq", ["userId", "courseId"])
    .execute();
  await db.schema
    .createTable("certificateNameChange")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificateId", "text", (c) => c.notNull().references("certificate.certificateId").onDelete("cascade"))
    .addColumn("oldFirstName", "text", (c) => c.notNull())
    .addColumn("oldLastName", "text", (c) => c.notNull())
    .addColumn("newFirstName", "text", (c) => c.notNull())
    .addColumn("newLastName", "text", (c) => c.notNull())
    .addColumn("changedAt", t.timestamp, (c) => c.notNull())
    .execute();
}
