import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Item statistics from running sums (docs/decisions/0039): per option of each item, the responses and
 * the sum and sum of squares of their attempts' scores; each attempt is marked once the rollup job has
 * added it. Existing attempts start unmarked, so the first rollup takes them all in; until then the
 * read counts them live.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("quizAttempt")
    .addColumn("tallied", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Holds only the attempts waiting for the rollup: the read's live part and the rollup's batch.
  await sql`create index "quizAttempt_untallied_idx" on "quizAttempt" ("courseId") where "tallied" = 0`.execute(db);
  await db.schema
    .createTable("itemResponseTally")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("assessmentId", "text", (c) => c.notNull())
    .addColumn("questionId", "text", (c) => c.notNull())
    .addColumn("optionId", "text", (c) => c.notNull())
    .addColumn("responses", t.bigint, (c) => c.notNull())
    .addColumn("sumScore", t.bigint, (c) => c.notNull())
    .addColumn("sumSquares", t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint("itemResponseTally_pk", ["courseId", "assessmentId", "questionId", "optionId"])
    .execute();
}
