import type { Kysely } from "kysely";

/**
 * Active learners over a long period (docs/decisions/0038): `activeLearnerDay` counted row by row is too
 * slow at 100,000 learners, so the rollup also keeps how many learners were active on each day with each
 * previous active day (-1: none before). A period's distinct active learners is then a sum over a few
 * thousand rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("activeLearnerGap")
    .addColumn("day", "integer", (c) => c.notNull())
    .addColumn("prevDay", "integer", (c) => c.notNull())
    .addColumn("learners", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("activeLearnerGap_pk", ["day", "prevDay"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("activeLearnerGap").ifExists().execute();
}
