/**
 * The item statistics' running sums (docs/decisions/0039): for each option of each item, how many
 * responses chose it and the sum and sum of squares of those attempts' scores. A materialised
 * aggregate of `quizAttempt`, kept here in the data layer because two writers keep it: the rollup job
 * (once across instances) and account erasure. An attempt counts in the tally once it is marked
 * `tallied`; until then the read adds it live, so the figures always cover every stored attempt.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { engineOf } from "./database.ts";
import type { DB, ItemResponseTallyTable } from "./schema.ts";

type Db = Kysely<DB> | Transaction<DB>;

interface AttemptAnswers {
  courseId: string;
  courseVersion: number;
  moduleId: string;
  score: number;
  answers: string;
}

/** One group of the tally: the responses choosing one option of one item. */
export interface OptionSums {
  assessmentId: string;
  questionId: string;
  optionId: string;
  n: number | string;
  sumScore: number | string;
  sumSquares: number | string;
}

const ROLLUP_BATCH = 2000;
/** Written as a literal, so both engines' planners match it to the partial index quizAttempt_untallied_idx. */
const UNTALLIED = sql<boolean>`"tallied" = 0`;
const UPSERT_CHUNK = 500;

/** Adds (sign 1) or takes away (sign -1) the attempts' responses, in the caller's transaction. */
async function applyToTally(trx: Db, attempts: AttemptAnswers[], sign: 1 | -1) {
  const groups = new Map<string, ItemResponseTallyTable>();
  for (const attempt of attempts) {
    const answers = JSON.parse(attempt.answers) as Record<string, unknown>;
    for (const [questionId, optionId] of Object.entries(answers)) {
      if (typeof optionId !== "string") continue;
      const key = JSON.stringify([attempt.courseId, attempt.courseVersion, attempt.moduleId, questionId, optionId]);
      let group = groups.get(key);
      if (!group) {
        group = {
          courseId: attempt.courseId,
          courseVersion: attempt.courseVersion,
          assessmentId: attempt.moduleId,
          questionId,
          optionId,
          responses: 0,
          sumScore: 0,
          sumSquares: 0,
        };
        groups.set(key, group);
      }
      group.responses += sign;
      group.sumScore += sign * attempt.score;
      group.sumSquares += sign * attempt.score * attempt.score;
    }
  }
  // Always in key order: two transactions changing the same rows (a rollup and an erasure) then take
  // their row locks in the same order and cannot deadlock on PostgreSQL.
  const rows = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    await trx
      .insertInto("itemResponseTally")
      .values(rows.slice(start, start + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(["courseId", "courseVersion", "assessmentId", "questionId", "optionId"]).doUpdateSet((eb) => ({
          responses: eb("itemResponseTally.responses", "+", eb.ref("excluded.responses")),
          sumScore: eb("itemResponseTally.sumScore", "+", eb.ref("excluded.sumScore")),
          sumSquares: eb("itemResponseTally.sumSquares", "+", eb.ref("excluded.sumSquares")),
        })),
      )
      .execute();
  }
}

/**
 * Moves attempts not yet tallied into the tally, a batch per transaction: the batch is marked and its
 * sums added in one commit, so a reader sees each attempt either live or in the tally, never both.
 * Returns how many attempts it moved.
 */
export async function rollUpItemResponses(db: Kysely<DB>, batch = ROLLUP_BATCH): Promise<number> {
  let moved = 0;
  for (;;) {
    const count = await db.transaction().execute(async (trx) => {
      // On PostgreSQL the batch is locked as it is chosen, skipping rows another rollup (a turn that
      // overran its slot) holds, so two rollups take disjoint batches. A row erased or marked meanwhile
      // no longer matches `tallied = 0` when the UPDATE reaches it: no attempt is counted twice.
      let chosen = trx.selectFrom("quizAttempt").select("id").where(UNTALLIED).limit(batch);
      if (engineOf(trx) === "postgres") chosen = chosen.forUpdate().skipLocked();
      const attempts = await trx
        .updateTable("quizAttempt")
        .set({ tallied: 1 })
        .where(UNTALLIED)
        .where("id", "in", chosen)
        .returning(["courseId", "courseVersion", "moduleId", "score", "answers"])
        .execute();
      await applyToTally(trx, attempts, 1);
      return attempts.length;
    });
    moved += count;
    if (count < batch) return moved;
  }
}

/** Deletes a learner's attempts and takes the tallied ones back out of the tally (account erasure). */
export async function eraseQuizAttempts(trx: Transaction<DB>, userId: string) {
  const erased = await trx
    .deleteFrom("quizAttempt")
    .where("userId", "=", userId)
    .returning(["courseId", "courseVersion", "moduleId", "score", "answers", "tallied"])
    .execute();
  await applyToTally(
    trx,
    erased.filter((a) => a.tallied === 1),
    -1,
  );
}

/**
 * Every item's option sums for one version of a course: the tally plus the attempts not yet in it, in
 * one statement (one snapshot), so a rollup committing meanwhile neither doubles nor drops an attempt.
 */
export async function courseOptionSums(db: Kysely<DB>, courseId: string, version: number): Promise<OptionSums[]> {
  const answers =
    engineOf(db) === "postgres"
      ? sql`cross join lateral jsonb_each_text(a.answers::jsonb) as j`
      : sql`cross join json_each(a.answers) as j`;
  const result = await sql<OptionSums>`
    select "assessmentId", "questionId", "optionId",
           sum(n) as n, sum("sumScore") as "sumScore", sum("sumSquares") as "sumSquares"
      from (
        select "assessmentId", "questionId", "optionId", responses as n, "sumScore", "sumSquares"
          from "itemResponseTally" where "courseId" = ${courseId} and "courseVersion" = ${version}
        union all
        select a."moduleId", j.key, j.value, count(*), sum(a.score), sum(a.score * a.score)
          from "quizAttempt" a ${answers}
         where a."courseId" = ${courseId} and a."courseVersion" = ${version} and a.tallied = 0
         group by a."moduleId", j.key, j.value
      ) as sums
     group by "assessmentId", "questionId", "optionId"`.execute(db);
  return result.rows;
}
