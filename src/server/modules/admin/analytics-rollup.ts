import { type Kysely, type RawBuilder, sql } from "kysely";
import { type Engine, engineOf } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { type Catalogue, CourseCatalogue } from "../courses/course-catalogue.ts";
import { foldMilestones } from "./learner-milestones.ts";

/**
 * The dashboard's daily rollup (docs/decisions/0038). Each turn of the `analytics-rollup` job:
 * - rebuilds the figures drawn from the small tables (orders, accounts, enrolments, completions,
 *   certificates, renewals) for every finished UTC day, so a refund that ends an old enrolment shows up
 *   at the next turn;
 * - rolls the activity (graded attempts, active learners) forward from the last turn, re-rolling the last
 *   REROLL_DAYS finished days for writes that committed just after midnight, in chunks of CHUNK_DAYS, each
 *   its own transaction that moves `analyticsRollup.rolledUntil` on.
 * - folds the learners active since its last turn into the funnel's milestones (decision 0045).
 * Readers take finished days before `rolledUntil` from here and everything after it from the raw rows.
 */

export const DAY_MS = 86_400_000;
const REROLL_DAYS = 2;
const CHUNK_DAYS = 31;

/** Figures rebuilt in full each turn. */
export const SMALL_METRICS = [
  "gross",
  "orders",
  "couponUses",
  "refunds",
  "refundCount",
  "accounts",
  "enrolments",
  "completions",
  "certificates",
  "renewed",
  "revoked",
] as const;
/** Figures rolled forward: per quiz, by the day of the attempt. */
export const ATTEMPT_METRICS = ["attempts", "scoreSum", "firsts", "firstPassed"] as const;
export type Metric = (typeof SMALL_METRICS)[number] | (typeof ATTEMPT_METRICS)[number];

/** Whole UTC days since 1970-01-01 of a timestamp column, in SQL. */
export function dayOfColumn(engine: Engine, column: RawBuilder<unknown> | ReturnType<typeof sql.ref>) {
  return engine === "postgres"
    ? sql<number>`floor(extract(epoch from ${column}) / 86400)::int`
    : sql<number>`cast(strftime('%s', ${column}) as integer) / 86400`;
}

export const dayNumber = (iso: string) => Math.floor(Date.parse(iso) / DAY_MS);
export const dayStartIso = (day: number) => new Date(day * DAY_MS).toISOString();

/** The first day not rolled up yet, or null when nothing is. */
export async function rolledUntil(db: Kysely<DB>): Promise<number | null> {
  const row = await db.selectFrom("analyticsRollup").select("rolledUntil").where("id", "=", 1).executeTakeFirst();
  return row ? Number(row.rolledUntil) : null;
}

interface DayValue {
  day: number;
  courseId: string;
  item: string;
  metric: Metric;
  value: number;
}

async function insertValues(db: Kysely<DB>, values: DayValue[]) {
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto("analyticsDay")
      .values(values.slice(i, i + 500))
      .execute();
}

const num = (value: unknown) => Number(value ?? 0);

/** Orders, accounts, enrolments, completions and certificates, every finished day before `until`. */
async function smallFigures(db: Kysely<DB>, engine: Engine, until: string): Promise<DayValue[]> {
  const d = (column: string) => dayOfColumn(engine, sql.ref(column));
  type Row = { day: unknown; courseId: string; item?: string; [k: string]: unknown };
  const [paid, refunded, accounts, enrolments, completions, issued, revoked, renewed] = await Promise.all([
    sql<Row>`select ${d("paidAt")} as day, "courseId", sum(amount) as gross,
               sum(case when amount > 0 then 1 else 0 end) as orders,
               sum(case when "couponId" is not null then 1 else 0 end) as "couponUses"
          from "order" where "paidAt" < ${until} group by 1, 2`.execute(db),
    sql<Row>`select ${d("refundedAt")} as day, "courseId", sum(amount) as refunds, count(*) as "refundCount"
          from "order" where status = 'refunded' and amount > 0 and "refundedAt" < ${until} group by 1, 2`.execute(db),
    sql<Row>`select ${d("createdAt")} as day, '' as "courseId", count(*) as accounts
          from "user" where "createdAt" < ${until} group by 1`.execute(db),
    sql<Row>`select ${d("createdAt")} as day, "courseId", source as item, count(*) as enrolments
          from enrollment where "createdAt" < ${until} group by 1, 2, 3`.execute(db),
    sql<Row>`select ${d("completedAt")} as day, "courseId", count(*) as completions
          from "courseProgress" where "isCompleted" = 1 and "completedAt" < ${until} group by 1, 2`.execute(db),
    sql<Row>`select ${d("issuedAt")} as day, "courseId", count(*) as certificates
          from certificate where "issuedAt" < ${until} group by 1, 2`.execute(db),
    sql<Row>`select ${d("revokedAt")} as day, "courseId", count(*) as revoked
          from certificate where "revokedAt" < ${until} group by 1, 2`.execute(db),
    sql<Row>`select ${d("renewedAt")} as day, '' as "courseId", count(*) as renewed
          from "certificateRenewal" where "renewedAt" < ${until} group by 1`.execute(db),
  ]);
  const values: DayValue[] = [];
  const take = (rows: Row[], metrics: Metric[]) => {
    for (const r of rows)
      for (const metric of metrics)
        values.push({ day: num(r.day), courseId: r.courseId, item: r.item ?? "", metric, value: num(r[metric]) });
  };
  take(paid.rows, ["gross", "orders", "couponUses"]);
  take(refunded.rows, ["refunds", "refundCount"]);
  take(accounts.rows, ["accounts"]);
  take(enrolments.rows, ["enrolments"]);
  take(completions.rows, ["completions"]);
  take(issued.rows, ["certificates"]);
  take(revoked.rows, ["revoked"]);
  take(renewed.rows, ["renewed"]);
  return values;
}

/**
 * Graded attempts per quiz and day in [from, to): count, score sum, first attempts (the learner's
 * earliest at that quiz, whenever it was) and first attempts passed.
 */
async function attemptFigures(db: Kysely<DB>, engine: Engine, from: string, to: string): Promise<DayValue[]> {
  const r = await sql<{ day: unknown; courseId: string; item: string; [k: string]: unknown }>`
    select day, "courseId", "moduleId" as item, count(*) as attempts, sum(score) as "scoreSum",
           sum(f) as firsts, sum(f * passed) as "firstPassed"
      from (select ${dayOfColumn(engine, sql.ref("q.createdAt"))} as day, q."courseId", q."moduleId", q.score, q.passed,
                   case when q."createdAt" = (
                     select min(o."createdAt") from "quizAttempt" o where o."userId" = q."userId"
                        and o."courseId" = q."courseId" and o."moduleId" = q."moduleId"
                   ) then 1 else 0 end as f
              from "quizAttempt" q where q."createdAt" >= ${from} and q."createdAt" < ${to}) a
     group by day, "courseId", "moduleId"`.execute(db);
  return r.rows.flatMap((row) =>
    ATTEMPT_METRICS.map((metric) => ({
      day: num(row.day),
      courseId: row.courseId,
      item: row.item,
      metric,
      value: num(row[metric]),
    })),
  );
}

/** The earliest activity, so the first build starts where the data does. */
async function firstActivityDay(db: Kysely<DB>): Promise<number | null> {
  const [lesson, attempt] = await Promise.all([
    db
      .selectFrom("lessonCompletion")
      .select((eb) => eb.fn.min("completedAt").as("at"))
      .executeTakeFirst(),
    db
      .selectFrom("quizAttempt")
      .select((eb) => eb.fn.min("createdAt").as("at"))
      .executeTakeFirst(),
  ]);
  const days = [lesson?.at, attempt?.at]
    .filter((at): at is NonNullable<typeof at> => at !== null && at !== undefined)
    .map((at) => dayNumber(new Date(at as string | Date).toISOString()));
  return days.length > 0 ? Math.min(...days) : null;
}

async function attemptsStillMatch(db: Kysely<DB>, until: number) {
  const [rows, rolled] = await Promise.all([
    sql<{ n: unknown }>`select count(*) as n from "quizAttempt" where "createdAt" < ${dayStartIso(until)}`.execute(db),
    sql<{
      n: unknown;
    }>`select sum(value) as n from "analyticsDay" where metric = 'attempts' and day < ${until}`.execute(db),
  ]);
  return num(rows.rows[0]?.n) === num(rolled.rows[0]?.n);
}

/**
 * Rolls activity for the days [from, to) into the rollup and moves the watermark to `to`. With
 * `clearEarlier` (the first chunk of a roll from the start) it also drops what was rolled up before
 * `from`: an erased account's activity may have been all there was on those days.
 */
async function rollActivity(db: Kysely<DB>, engine: Engine, from: number, to: number, now: Date, clearEarlier = false) {
  const fromIso = dayStartIso(from);
  const toIso = dayStartIso(to);
  // Day numbers count from 1970-01-01, so 0 is before anything rolled up.
  const since = clearEarlier ? 0 : from;
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("analyticsDay")
      .where("metric", "in", [...ATTEMPT_METRICS])
      .where("day", ">=", since)
      .execute();
    await insertValues(trx, await attemptFigures(trx, engine, fromIso, toIso));
    await trx.deleteFrom("activeLearnerDay").where("day", ">=", since).execute();
    // The previous active day: the one before in this chunk, or the last one already rolled up.
    await sql`
      insert into "activeLearnerDay" ("userId", day, "prevDay")
      select "userId", day, coalesce(lag(day) over (partition by "userId" order by day),
             (select max(p.day) from "activeLearnerDay" p where p."userId" = a."userId"))
        from (select distinct "userId", ${dayOfColumn(engine, sql.ref("at"))} as day
                from (select "userId", "completedAt" as at from "lessonCompletion"
                       where "completedAt" >= ${fromIso} and "completedAt" < ${toIso}
                      union all
                      select "userId", "createdAt" as at from "quizAttempt"
                       where "createdAt" >= ${fromIso} and "createdAt" < ${toIso}) x) a`.execute(trx);
    await trx.deleteFrom("activeLearnerGap").where("day", ">=", since).execute();
    await sql`
      insert into "activeLearnerGap" (day, "prevDay", learners)
      select day, coalesce("prevDay", -1), count(*) from "activeLearnerDay" where day >= ${sql.lit(from)}
       group by day, coalesce("prevDay", -1)`.execute(trx);
    const rolledAt = now.toISOString();
    const updated = await trx
      .updateTable("analyticsRollup")
      .set({ rolledUntil: to, rolledAt })
      .where("id", "=", 1)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      await trx.insertInto("analyticsRollup").values({ id: 1, rolledUntil: to, rolledAt }).execute();
  });
}

/**
 * After an account is erased its learner-days are gone (account-data.ts deletes them) but the per-day
 * counts still hold them: they are counted again from the learner-days.
 */
async function recountGaps(db: Kysely<DB>) {
  const [days, counted] = await Promise.all([
    sql<{ n: unknown }>`select count(*) as n from "activeLearnerDay"`.execute(db),
    sql<{ n: unknown }>`select sum(learners) as n from "activeLearnerGap"`.execute(db),
  ]);
  if (num(days.rows[0]?.n) === num(counted.rows[0]?.n)) return;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("activeLearnerGap").execute();
    await sql`
      insert into "activeLearnerGap" (day, "prevDay", learners)
      select day, coalesce("prevDay", -1), count(*) from "activeLearnerDay" group by day, coalesce("prevDay", -1)`.execute(
      trx,
    );
  });
}

/** The catalogue the milestones are computed against: the app's, or (a test, the bench) read now. */
async function withCatalogue(db: Kysely<DB>, catalogue: Catalogue | undefined, use: (c: Catalogue) => Promise<void>) {
  if (catalogue) return use(catalogue);
  const loaded = new CourseCatalogue(db);
  try {
    await use(await loaded.get());
  } finally {
    loaded.dispose();
  }
}

/** One turn of the job: brings the rollup up to the start of today (UTC), and the milestones up to now. */
export async function rollUpAnalytics(
  db: Kysely<DB>,
  now = new Date(),
  catalogue?: Catalogue,
): Promise<{ days: number }> {
  await withCatalogue(db, catalogue, (c) => foldMilestones(db, c, now));
  const engine = engineOf(db);
  const today = Math.floor(now.getTime() / DAY_MS);
  const small = await smallFigures(db, engine, dayStartIso(today));
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("analyticsDay")
      .where("metric", "in", [...SMALL_METRICS])
      .execute();
    await insertValues(trx, small);
  });
  await recountGaps(db);
  const until = await rolledUntil(db);
  let from = until === null ? await firstActivityDay(db) : Math.max(0, Math.min(until, today) - REROLL_DAYS);
  // Attempts only ever leave with an erased account: when the rolled-up count no longer matches the
  // rows, the activity is rolled up again from the start, and whatever was rolled up before the
  // earliest activity left is dropped.
  const fromStart = until !== null && !(await attemptsStillMatch(db, until));
  if (fromStart) from = await firstActivityDay(db);
  if (from === null || from >= today) {
    // No activity before today: the watermark still moves, so the small figures are read from here.
    if (fromStart || until === null || until < today)
      await rollActivity(db, engine, from ?? today, today, now, fromStart);
    return { days: 0 };
  }
  const start = from;
  while (from < today) {
    const to = Math.min(from + CHUNK_DAYS, today);
    await rollActivity(db, engine, from, to, now, fromStart && from === start);
    from = to;
  }
  return { days: today - start };
}
