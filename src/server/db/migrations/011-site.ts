import type { Kysely } from "kysely";

/** Review dates and reviewers shown on course and lesson pages, and a course's note on protected titles. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("course").addColumn("lastReviewed", "text").execute();
  await db.schema.alterTable("course").addColumn("reviewerRole", "text").execute();
  await db.schema.alterTable("course").addColumn("titleNotice", "text").execute();
  await db.schema.alterTable("lesson").addColumn("lastReviewed", "text").execute();
  await db.schema.alterTable("lesson").addColumn("reviewerRole", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("lesson").dropColumn("reviewerRole").execute();
  await db.schema.alterTable("lesson").dropColumn("lastReviewed").execute();
  await db.schema.alterTable("course").dropColumn("titleNotice").execute();
  await db.schema.alterTable("course").dropColumn("reviewerRole").execute();
  await db.schema.alterTable("course").dropColumn("lastReviewed").execute();
}
