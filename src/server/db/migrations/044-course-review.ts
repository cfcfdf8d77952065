import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Who reviewed a published course version, with what credential, and when (docs/decisions/0058):
 * one row per version, written by an admin; the date is on or after the version's publication.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("courseReview")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("reviewerName", "text", (c) => c.notNull())
    .addColumn("credential", "text", (c) => c.notNull())
    /** The day the reviewer finished the review (YYYY-MM-DD). */
    .addColumn("reviewedOn", "text", (c) => c.notNull())
    .addColumn("recordedBy", "text", (c) => c.notNull())
    .addColumn("recordedAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("courseReview_pk", ["courseId", "version"])
    .addForeignKeyConstraint(
      "courseReview_version_fk",
      ["courseId", "version"],
      "courseVersion",
      ["courseId", "version"],
      (c) => c.onDelete("cascade"),
    )
    .execute();
}
