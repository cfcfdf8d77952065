import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * The practical skills assessment (docs/decisions/0026): each course's brief and rubric (content),
 * learners' submissions with their files, assessors' reviews, and admins' extra resubmissions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("coursePractical")
    .addColumn("courseId", "text", (c) => c.primaryKey().references("course.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("briefHtml", "text", (c) => c.notNull())
    .addColumn("criteria", "text", (c) => c.notNull())
    .addColumn("passMinPercent", "integer", (c) => c.notNull())
    .addColumn("passNoLowestLevel", "integer", (c) => c.notNull())
    .addColumn("requiredForCertificate", "integer", (c) => c.notNull())
    .execute();
  // The id is the submission number an assessor sees instead of the learner's name.
  await db.schema
    .createTable("practicalSubmission")
    .addColumn("id", t.serial, (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().modifyEnd(sql`check ("status" in ('submitted', 'in-review', 'passed', 'resubmit'))`),
    )
    .addColumn("submittedAt", t.timestamp, (c) => c.notNull())
    .addColumn("consentedAt", t.timestamp, (c) => c.notNull())
    .addColumn("claimedBy", "text")
    .addColumn("claimedAt", t.timestamp)
    .addColumn("reviewedBy", "text")
    .addColumn("reviewedAt", t.timestamp)
    .addColumn("scores", "text")
    .addColumn("feedback", "text")
    .addColumn("points", "integer")
    .addColumn("maxPoints", "integer")
    .addUniqueConstraint("practicalSubmission_attempt_uq", ["userId", "courseId", "attempt"])
    .execute();
  await db.schema
    .createIndex("practicalSubmission_queue_idx")
    .on("practicalSubmission")
    .columns(["status", "submittedAt"])
    .execute();
  // One submission waiting for review per learner and course, even when two submissions race.
  await sql`create unique index "practicalSubmission_open_uq" on "practicalSubmission" ("userId", "courseId") where "status" in ('submitted', 'in-review')`.execute(
    db,
  );
  await db.schema
    .createTable("practicalFile")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("submissionId", "integer", (c) => c.notNull().references("practicalSubmission.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("contentType", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("storageKey", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("practicalFile_submission_idx").on("practicalFile").column("submissionId").execute();
  await db.schema
    .createTable("practicalGrant")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("grantedBy", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("practicalGrant_user_idx").on("practicalGrant").columns(["userId", "courseId"]).execute();
}
