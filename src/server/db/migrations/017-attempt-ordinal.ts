import { type Kysely, sql } from "kysely";

/**
 * Each learner's attempts at one quiz or exam are numbered 1, 2, 3... with a unique index, so that
 * starting an attempt is one atomic step: the insert names the number after the last one the
 * allowance was computed from, and fails when another instance added an attempt in the meantime
 * (docs/decisions/0022). Earlier attempts are numbered in the order they started.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("assessmentAttempt").addColumn("ordinal", "integer").execute();
  await sql`
    update "assessmentAttempt" set "ordinal" = (
      select count(*) from "assessmentAttempt" as "earlier"
      where "earlier"."userId" = "assessmentAttempt"."userId"
        and "earlier"."courseId" = "assessmentAttempt"."courseId"
        and "earlier"."assessmentId" = "assessmentAttempt"."assessmentId"
        and ("earlier"."startedAt" < "assessmentAttempt"."startedAt"
          or ("earlier"."startedAt" = "assessmentAttempt"."startedAt" and "earlier"."id" <= "assessmentAttempt"."id"))
    )`.execute(db);
  await db.schema
    .createIndex("assessmentAttempt_ordinal_uq")
    .on("assessmentAttempt")
    .columns(["userId", "courseId", "assessmentId", "ordinal"])
    .unique()
    .execute();
}
