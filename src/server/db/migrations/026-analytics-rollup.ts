import type { Kysely } from "kysely";

/**
 * The dashboard's daily rollup (docs/decisions/0038), kept by the `analytics-rollup` job.
 * - `analyticsDay`: one sum per UTC day (days since 1970-01-01), course, item (a quiz or module, an
 *   enrolment source, or '') and metric.
 * - `activeLearnerDay`: one row per learner and day with a lesson completion or a graded attempt, with the
 *   learner's previous active day, so "distinct learners active in a range" is a count of the rows in the
 *   range whose previous day falls before it.
 * - `analyticsRollup`: one row, the first day not rolled up yet; no row means nothing is rolled up and
 *   every figure is computed from the raw rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("analyticsDay")
    .addColumn("day", "integer", (c) => c.notNull())
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("item", "text", (c) => c.notNull())
    .addColumn("metric", "text", (c) => c.notNull())
    .addColumn("value", "double precision", (c) => c.notNull())
    .addPrimaryKeyConstraint("analyticsDay_pk", ["metric", "day", "courseId", "item"])
    .execute();
  await db.schema
    .createTable("activeLearnerDay")
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("day", "integer", (c) => c.notNull())
    .addColumn("prevDay", "integer")
    .addPrimaryKeyConstraint("activeLearnerDay_pk", ["userId", "day"])
    .execute();
  await db.schema.createIndex("activeLearnerDay_day_idx").on("activeLearnerDay").columns(["day", "prevDay"]).execute();
  await db.schema
    .createTable("analyticsRollup")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("rolledUntil", "integer", (c) => c.notNull())
    .addColumn("rolledAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["analyticsRollup", "activeLearnerDay", "analyticsDay"])
    await db.schema.dropTable(table).ifExists().execute();
}
