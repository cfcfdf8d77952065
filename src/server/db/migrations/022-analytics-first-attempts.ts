import type { Kysely } from "kysely";

/**
 * The dashboard's first-try pass rate (docs/decisions/0030) asks, for each attempt in a period, for the
 * earliest attempt of the same learner at the same quiz: this index answers that from the index alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("quizAttempt_first_idx")
    .on("quizAttempt")
    .columns(["userId", "courseId", "moduleId", "createdAt"])
    .execute();
}
