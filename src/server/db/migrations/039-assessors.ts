import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Assessors who are qualified, calibrated and checked (docs/decisions/0053): the practical's evidence
 * rule, assessor requirement, red-flag steps and exemplars (content); each assessor's qualifications;
 * calibration scores on the exemplars; every mark an assessor gives (first, blind second, deciding
 * third); the learner's red-flag confirmation and the submission's marking stage.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("coursePractical")
    .addColumn("evidence", "text", (c) => c.notNull().defaultTo("written"))
    .execute();
  await db.schema
    .alterTable("coursePractical")
    .addColumn("assessorRequirements", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("coursePractical")
    .addColumn("redFlagSteps", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("coursePractical")
    .addColumn("exemplars", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("practicalSubmission").addColumn("redFlagConfirmedAt", t.timestamp).execute();
  // null: first marking (or done); 'second': waiting for a blind second mark; 'third': the two disagreed.
  await db.schema
    .alterTable("practicalSubmission")
    .addColumn("markingStage", "text", (c) => c.modifyEnd(sql`check ("markingStage" in ('second', 'third'))`))
    .execute();

  await db.schema
    .createTable("assessorProfile")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("credential", "text", (c) => c.notNull())
    .addColumn("awardingBody", "text", (c) => c.notNull())
    .addColumn("credentialNumber", "text", (c) => c.notNull())
    .addColumn("coachingTraining", "text")
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("assessorCalibration")
    .addColumn("id", t.serial, (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id").onDelete("cascade"))
    .addColumn("exemplarId", "text", (c) => c.notNull())
    .addColumn("rubricHash", "text", (c) => c.notNull())
    .addColumn("scores", "text", (c) => c.notNull())
    .addColumn("withinOne", "integer", (c) => c.notNull())
    .addColumn("scoredAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assessorCalibration_user_idx")
    .on("assessorCalibration")
    .columns(["userId", "courseId", "exemplarId", "scoredAt"])
    .execute();

  await db.schema
    .createTable("practicalMark")
    .addColumn("id", t.serial, (c) => c.primaryKey())
    .addColumn("submissionId", "integer", (c) => c.notNull().references("practicalSubmission.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("round", "integer", (c) => c.notNull())
    .addColumn("assessorId", "text", (c) => c.notNull())
    .addColumn("decision", "text", (c) => c.notNull().modifyEnd(sql`check ("decision" in ('pass', 'resubmit'))`))
    .addColumn("scores", "text", (c) => c.notNull())
    .addColumn("feedback", "text", (c) => c.notNull())
    .addColumn("points", "integer", (c) => c.notNull())
    .addColumn("maxPoints", "integer", (c) => c.notNull())
    .addColumn("claimedAt", t.timestamp, (c) => c.notNull())
    .addColumn("markedAt", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("practicalMark_round_uq", ["submissionId", "round"])
    .execute();
  await db.schema
    .createIndex("practicalMark_course_idx")
    .on("practicalMark")
    .columns(["courseId", "markedAt"])
    .execute();
}
