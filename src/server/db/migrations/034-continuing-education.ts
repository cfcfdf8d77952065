import type { Kysely } from "kysely";

/**
 * A course's continuing-education approval (docs/decisions/0052): JSON { hours, approvedBy,
 * approvalNumber } from course.json's `continuingEducation`, or null when no body approved the course.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("course").addColumn("ceApproval", "text").execute();
}
