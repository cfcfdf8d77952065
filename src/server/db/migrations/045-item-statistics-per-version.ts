import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Item statistics per item and course version (docs/decisions/0055): the running sums of
 * `itemResponseTally` (decision 0039) gain the version of the attempts they sum, in their key. The
 * sums held so far are all of version 1 (every attempt was made on version 1 before versions), and
 * are copied over as such; nothing is recounted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("itemResponseTally").renameTo("itemResponseTally_before_versions").execute();
  await db.schema
    .createTable("itemResponseTally")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("courseVersion", "integer", (c) => c.notNull())
    .addColumn("assessmentId", "text", (c) => c.notNull())
    .addColumn("questionId", "text", (c) => c.notNull())
    .addColumn("optionId", "text", (c) => c.notNull())
    .addColumn("responses", t.bigint, (c) => c.notNull())
    .addColumn("sumScore", t.bigint, (c) => c.notNull())
    .addColumn("sumSquares", t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint("itemResponseTally_version_pk", [
      "courseId",
      "courseVersion",
      "assessmentId",
      "questionId",
      "optionId",
    ])
    .execute();
  await db
    .insertInto("itemResponseTally")
    .columns([
      "courseId",
      "courseVersion",
      "assessmentId",
      "questionId",
      "optionId",
      "responses",
      "sumScore",
      "sumSquares",
    ])
    .expression(
      db
        .selectFrom("itemResponseTally_before_versions")
        .select((eb) => [
          "courseId",
          eb.lit(1).as("courseVersion"),
          "assessmentId",
          "questionId",
          "optionId",
          "responses",
          "sumScore",
          "sumSquares",
        ]),
    )
    .execute();
  await db.schema.dropTable("itemResponseTally_before_versions").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("itemResponseTally").renameTo("itemResponseTally_versions").execute();
  const t = columnTypes(db);
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
  await db
    .insertInto("itemResponseTally")
    .columns(["courseId", "assessmentId", "questionId", "optionId", "responses", "sumScore", "sumSquares"])
    .expression(
      db
        .selectFrom("itemResponseTally_versions")
        .select((eb) => [
          "courseId",
          "assessmentId",
          "questionId",
          "optionId",
          eb.fn.sum("responses").as("responses"),
          eb.fn.sum("sumScore").as("sumScore"),
          eb.fn.sum("sumSquares").as("sumSquares"),
        ])
        .groupBy(["courseId", "assessmentId", "questionId", "optionId"]),
    )
    .execute();
  await db.schema.dropTable("itemResponseTally_versions").execute();
}
