import { type Kysely, type RawBuilder, sql } from "kysely";
import { median } from "#shared/median.ts";
import {
  type AnalyticsAssessments,
  type AnalyticsOverview,
  type AnalyticsTable,
  type CourseFunnel,
  DAILY_UP_TO_DAYS,
  EXPIRING_SOON_DAYS,
  type LearnerFigures,
  type SalesFigures,
  STALL_DAYS,
} from "#shared/schemas/analytics.ts";
import { type Engine, engineOf } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { FINAL_EXAM_ID } from "../progress/learner-state.ts";
import { dayNumber, dayStartIso, type Metric, rolledUntil } from "./analytics-rollup.ts";
import {
  activeInCourseSince,
  funnelModules,
  milestonesFromRows,
  milestonesSince,
  passedFlags,
} from "./learner-milestones.ts";

/**
 * The owner's dashboard (docs/decisions/0030, 0038): every figure is an aggregate over orders,
 * enrolments, progress, attempts and certificates, on both engines; rows about a person never leave
 * the database, only counts and sums. Finished days before the rollup's watermark are read from the
 * daily rollup (`analytics-rollup.ts`), the days after it from the raw rows, and the two are added.
 */

const DAY_MS = 86_400_000;

export interface Range {
  /** Inclusive start, ISO. */
  from: string;
  /** Exclusive end, ISO. */
  to: string;
}
export interface Period {
  from: string;
  to: string;
  days: number;
  previousFrom: string;
  previousTo: string;
  interval: "day" | "week";
  current: Range;
  previous: Range;
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const isoOf = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => isoOf(ms).slice(0, 10);

/** `from` and `to` are whole UTC days, both included; the previous period is as long and ends the day before. */
export function periodOf(query: { from: string; to: string }): Period {
  const start = dayStart(query.from);
  const end = dayStart(query.to) + DAY_MS;
  const days = Math.round((end - start) / DAY_MS);
  const previousStart = start - days * DAY_MS;
  return {
    from: query.from,
    to: query.to,
    days,
    previousFrom: dayOf(previousStart),
    previousTo: dayOf(start - DAY_MS),
    interval: days <= DAILY_UP_TO_DAYS ? "day" : "week",
    current: { from: isoOf(start), to: isoOf(end) },
    previous: { from: isoOf(previousStart), to: isoOf(start) },
  };
}

export const publicPeriod = ({ current: _c, previous: _p, ...rest }: Period) => rest;

const num = (value: unknown) => Number(value ?? 0);
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const col = (name: string) => sql.ref(name);

/** The bucket (0, 1, 2...) of a timestamp column: whole days (or weeks) since the period's start. */
function bucketOf(
  engine: Engine,
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  from: string,
  size: number,
) {
  return engine === "postgres"
    ? sql<number>`floor(extract(epoch from (${column} - ${from}::timestamptz)) / ${sql.lit(size * 86_400)})::int`
    : sql<number>`cast((julianday(${column}) - julianday(${from})) / ${sql.lit(size)} as integer)`;
}

const within = (column: string, range: Range) => sql`${col(column)} >= ${range.from} and ${col(column)} < ${range.to}`;

function bucketDates(period: Period) {
  const size = period.interval === "day" ? 1 : 7;
  const count = Math.ceil(period.days / size);
  const start = dayStart(period.from);
  return { size, dates: Array.from({ length: count }, (_, i) => dayOf(start + i * size * DAY_MS)) };
}

// ---- Rollup and live -----------------------------------------------------------------------------

/** Days [from, to), as day numbers. */
interface Span {
  from: number;
  to: number;
}
/** A range cut at the rollup's watermark: the days read from the rollup, the rest from the raw rows. */
interface Split {
  rolled: Span | null;
  live: Range | null;
}

export function splitRange(range: Range, until: number | null): Split {
  const a = dayNumber(range.from);
  const b = dayNumber(range.to);
  const cut = until === null ? a : Math.min(Math.max(until, a), b);
  return {
    rolled: cut > a ? { from: a, to: cut } : null,
    live: cut < b ? { from: cut > a ? dayStartIso(cut) : range.from, to: range.to } : null,
  };
}

type Totals = Partial<Record<Metric, number>>;
const sumInto = (into: Totals, from: Totals) => {
  for (const [k, v] of Object.entries(from) as [Metric, number][]) into[k] = (into[k] ?? 0) + v;
  return into;
};

/** Rolled-up sums of `metrics` over `span`, grouped by `key` (an SQL expression over analyticsDay). */
async function rolled(
  db: Kysely<DB>,
  span: Span | null,
  metrics: Metric[],
  key?: RawBuilder<unknown>,
): Promise<Map<string, Totals>> {
  const out = new Map<string, Totals>();
  if (!span) return out;
  const r = await sql<{ k: unknown; metric: Metric; v: unknown }>`
    select ${key ?? sql`''`} as k, metric, sum(value) as v from "analyticsDay"
     where metric in (${sql.join(metrics)}) and day >= ${sql.lit(span.from)} and day < ${sql.lit(span.to)}
     group by ${key ? sql`1, metric` : sql`metric`}`.execute(db);
  for (const row of r.rows) {
    const k = String(row.k);
    const totals = out.get(k) ?? {};
    totals[row.metric] = (totals[row.metric] ?? 0) + num(row.v);
    out.set(k, totals);
  }
  return out;
}
/** The bucket of a rolled-up day, as bucketOf gives it for a timestamp. */
const rolledBucket = (period: Period, size: number) =>
  sql`(day - ${sql.lit(dayNumber(period.current.from))}) / ${sql.lit(size)}`;

// ---- Sales -------------------------------------------------------------------------------------

const SALES: Metric[] = ["gross", "orders", "couponUses", "refunds", "refundCount"];
type Key = (timeColumn: string) => RawBuilder<unknown>;

const mergeMaps = (...maps: Map<string, Totals>[]) => {
  const out = new Map<string, Totals>();
  for (const map of maps) for (const [k, t] of map) out.set(k, sumInto(out.get(k) ?? {}, t));
  return out;
};
const groupBy = (key: Key | undefined) => (key ? sql`group by 1` : sql``);
const keyOf = (key: Key | undefined, column: string) => (key ? key(column) : sql`''`);

/**
 * Sales from the raw orders. Paid orders have a price above zero; a free coupon claim is an order of 0
 * and counts only as a coupon use.
 */
async function liveSales(db: Kysely<DB>, range: Range | null, key?: Key): Promise<Map<string, Totals>> {
  const out = new Map<string, Totals>();
  if (!range) return out;
  const [paid, refunded] = await Promise.all([
    sql<{ k: unknown; gross: unknown; orders: unknown; couponUses: unknown }>`
      select ${keyOf(key, "paidAt")} as k, coalesce(sum(amount), 0) as gross,
             coalesce(sum(case when amount > 0 then 1 else 0 end), 0) as orders,
             coalesce(sum(case when "couponId" is not null then 1 else 0 end), 0) as "couponUses"
        from "order" where ${within("paidAt", range)} ${groupBy(key)}`.execute(db),
    sql<{ k: unknown; refunds: unknown; refundCount: unknown }>`
      select ${keyOf(key, "refundedAt")} as k, coalesce(sum(amount), 0) as refunds, count(*) as "refundCount"
        from "order" where status = 'refunded' and amount > 0 and ${within("refundedAt", range)} ${groupBy(key)}`.execute(
      db,
    ),
  ]);
  for (const r of paid.rows)
    out.set(
      String(r.k),
      sumInto(out.get(String(r.k)) ?? {}, {
        gross: num(r.gross),
        orders: num(r.orders),
        couponUses: num(r.couponUses),
      }),
    );
  for (const r of refunded.rows)
    out.set(
      String(r.k),
      sumInto(out.get(String(r.k)) ?? {}, { refunds: num(r.refunds), refundCount: num(r.refundCount) }),
    );
  return out;
}

async function salesFigures(db: Kysely<DB>, until: number | null, range: Range): Promise<SalesFigures> {
  const part = splitRange(range, until);
  const t = mergeMaps(await rolled(db, part.rolled, SALES), await liveSales(db, part.live)).get("") ?? {};
  const gross = t.gross ?? 0;
  const orders = t.orders ?? 0;
  const refunds = t.refunds ?? 0;
  const refundCount = t.refundCount ?? 0;
  return {
    grossCents: gross,
    refundsCents: refunds,
    netCents: gross - refunds,
    orders,
    averageOrderCents: orders > 0 ? Math.round(gross / orders) : null,
    couponUses: t.couponUses ?? 0,
    refundCount,
    refundRate: ratio(refundCount, orders),
  };
}

async function salesSeries(db: Kysely<DB>, until: number | null, period: Period) {
  const engine = engineOf(db);
  const { size, dates } = bucketDates(period);
  const part = splitRange(period.current, until);
  const [a, b] = await Promise.all([
    rolled(db, part.rolled, SALES, rolledBucket(period, size)),
    liveSales(db, part.live, (column) => bucketOf(engine, col(column), period.current.from, size)),
  ]);
  const byBucket = mergeMaps(a, b);
  return dates.map((date, i) => {
    const t = byBucket.get(String(i)) ?? {};
    const grossCents = t.gross ?? 0;
    const refundsCents = t.refunds ?? 0;
    return { date, grossCents, refundsCents, netCents: grossCents - refundsCents, orders: t.orders ?? 0 };
  });
}

async function salesByCourse(db: Kysely<DB>, catalogue: Catalogue, until: number | null, range: Range) {
  const part = splitRange(range, until);
  const [a, b] = await Promise.all([
    rolled(db, part.rolled, SALES, sql`"courseId"`),
    liveSales(db, part.live, () => col("courseId")),
  ]);
  const byCourse = mergeMaps(a, b);
  const ids = new Set(byCourse.keys());
  const ordered = [
    ...catalogue.courses.map((c) => c.card.id).filter((id) => ids.has(id)),
    ...[...ids].filter((id) => !catalogue.byId.has(id)).sort(),
  ];
  return ordered.map((courseId) => {
    const t = byCourse.get(courseId) ?? {};
    const grossCents = t.gross ?? 0;
    const refundsCents = t.refunds ?? 0;
    return {
      courseId,
      title: catalogue.byId.get(courseId)?.card.title ?? courseId,
      grossCents,
      refundsCents,
      netCents: grossCents - refundsCents,
      orders: t.orders ?? 0,
    };
  });
}

// ---- Learners ----------------------------------------------------------------------------------

/** The raw rows behind each counted figure: a table, its time column and which rows count. */
const COUNTED = {
  accounts: { table: "user", column: "createdAt", where: sql`1 = 1` },
  enrolments: { table: "enrollment", column: "createdAt", where: sql`1 = 1` },
  completions: { table: "courseProgress", column: "completedAt", where: sql`"isCompleted" = 1` },
  certificates: { table: "certificate", column: "issuedAt", where: sql`1 = 1` },
  renewed: { table: "certificateRenewal", column: "renewedAt", where: sql`1 = 1` },
  revoked: { table: "certificate", column: "revokedAt", where: sql`1 = 1` },
} satisfies Partial<Record<Metric, { table: string; column: string; where: RawBuilder<unknown> }>>;
type Counted = keyof typeof COUNTED;

/** A counted figure over a range: rolled-up days plus raw rows, grouped by `key` (rolled, live). */
async function counted(
  db: Kysely<DB>,
  until: number | null,
  range: Range,
  metric: Counted,
  key?: { rolled: RawBuilder<unknown>; live: Key },
): Promise<Map<string, number>> {
  const part = splitRange(range, until);
  const { table, column, where } = COUNTED[metric];
  const [a, b] = await Promise.all([
    rolled(db, part.rolled, [metric], key?.rolled),
    part.live
      ? sql<{ k: unknown; n: unknown }>`
          select ${keyOf(key?.live, column)} as k, count(*) as n from ${sql.table(table)}
           where ${where} and ${within(column, part.live)} ${groupBy(key?.live)}`.execute(db)
      : Promise.resolve({ rows: [] as { k: unknown; n: unknown }[] }),
  ]);
  const out = new Map<string, number>();
  for (const [k, t] of a) out.set(k, (out.get(k) ?? 0) + (t[metric] ?? 0));
  for (const r of b.rows) out.set(String(r.k), (out.get(String(r.k)) ?? 0) + num(r.n));
  return out;
}
const total = (map: Map<string, number>) => [...map.values()].reduce((s, n) => s + n, 0);

/** Lesson completions and graded attempts: what makes a learner active. */
const activity = (range: Range) => sql`
  select "userId", "completedAt" as at from "lessonCompletion" where ${within("completedAt", range)}
  union all
  select "userId", "createdAt" as at from "quizAttempt" where ${within("createdAt", range)}`;

/**
 * Distinct learners active in the range (or in each bucket of the period). A rolled-up learner-day counts
 * when the learner's previous active day falls before the range (bucket), so each learner counts once
 * (summed from activeLearnerGap, the learner-days counted per day and previous day);
 * a learner active only after the watermark counts when no rolled-up day of theirs is in the range (bucket).
 */
async function activeLearners(
  db: Kysely<DB>,
  until: number | null,
  range: Range,
  buckets?: { period: Period; size: number },
): Promise<Map<string, number>> {
  const engine = engineOf(db);
  const part = splitRange(range, until);
  const start = sql.lit(dayNumber(range.from));
  const size = sql.lit(buckets?.size ?? 1);
  const bucket = buckets ? sql`(day - ${start}) / ${size}` : sql`0`;
  const bucketStart = buckets ? sql`${start} + ((day - ${start}) / ${size}) * ${size}` : start;
  const rolledEnd = part.rolled ? sql.lit(part.rolled.to) : null;
  const [a, b] = await Promise.all([
    part.rolled
      ? sql<{ k: unknown; n: unknown }>`
          select ${bucket} as k, sum(learners) as n from "activeLearnerGap"
           where day >= ${start} and day < ${rolledEnd} and "prevDay" < ${bucketStart}
           group by 1`.execute(db)
      : Promise.resolve({ rows: [] as { k: unknown; n: unknown }[] }),
    part.live
      ? sql<{ k: unknown; n: unknown }>`
          select b as k, count(distinct "userId") as n
            from (select "userId", ${buckets ? bucketOf(engine, col("at"), range.from, buckets.size) : sql`0`} as b
                    from (${activity(part.live)}) u) x
           ${
             rolledEnd
               ? // A scalar subquery, not "not exists": PostgreSQL would turn that into an anti-join that
                 // hashes every rolled-up learner-day of the range (400 ms at a year).
                 sql`where coalesce((select max(d.day) from "activeLearnerDay" d
                                      where d."userId" = x."userId" and d.day < ${rolledEnd}), -1) < ${start} + x.b * ${size}`
               : sql``
           }
           group by b`.execute(db)
      : Promise.resolve({ rows: [] as { k: unknown; n: unknown }[] }),
  ]);
  const out = new Map<string, number>();
  for (const r of [...a.rows, ...b.rows]) out.set(String(r.k), (out.get(String(r.k)) ?? 0) + num(r.n));
  return out;
}

async function learnerFigures(db: Kysely<DB>, until: number | null, range: Range): Promise<LearnerFigures> {
  const [accounts, enrolments, active, completions, certificates] = await Promise.all([
    counted(db, until, range, "accounts"),
    counted(db, until, range, "enrolments", { rolled: sql`item`, live: () => col("source") }),
    activeLearners(db, until, range),
    counted(db, until, range, "completions"),
    counted(db, until, range, "certificates"),
  ]);
  return {
    newAccounts: total(accounts),
    enrolments: {
      paid: enrolments.get("purchase") ?? 0,
      freeCoupon: enrolments.get("coupon") ?? 0,
      admin: enrolments.get("admin") ?? 0,
      total: total(enrolments),
    },
    activeLearners: total(active),
    completions: total(completions),
    certificatesIssued: total(certificates),
  };
}

async function learnerSeries(db: Kysely<DB>, until: number | null, period: Period) {
  const engine = engineOf(db);
  const { size, dates } = bucketDates(period);
  const range = period.current;
  const key = {
    rolled: rolledBucket(period, size),
    live: (column: string) => bucketOf(engine, col(column), range.from, size),
  };
  const [accounts, enrolments, active, completions, certificates] = await Promise.all([
    counted(db, until, range, "accounts", key),
    counted(db, until, range, "enrolments", key),
    activeLearners(db, until, range, { period, size }),
    counted(db, until, range, "completions", key),
    counted(db, until, range, "certificates", key),
  ]);
  return dates.map((date, i) => ({
    date,
    newAccounts: accounts.get(String(i)) ?? 0,
    enrolments: enrolments.get(String(i)) ?? 0,
    activeLearners: active.get(String(i)) ?? 0,
    completions: completions.get(String(i)) ?? 0,
    certificatesIssued: certificates.get(String(i)) ?? 0,
  }));
}

// ---- Certificates ------------------------------------------------------------------------------

async function certificateFigures(db: Kysely<DB>, until: number | null, range: Range) {
  const [renewed, revoked, issued] = await Promise.all([
    counted(db, until, range, "renewed"),
    counted(db, until, range, "revoked"),
    counted(db, until, range, "certificates"),
  ]);
  return { issued: total(issued), renewed: total(renewed), revoked: total(revoked) };
}

async function expiringSoon(db: Kysely<DB>, now: Date) {
  const range = { from: now.toISOString(), to: isoOf(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS) };
  const r = await sql<{ n: unknown }>`
    select count(*) as n from certificate where "revokedAt" is null and ${within("expiresAt", range)}`.execute(db);
  return num(r.rows[0]?.n);
}

export async function analyticsOverview(
  db: Kysely<DB>,
  catalogue: Catalogue,
  period: Period,
  now = new Date(),
): Promise<AnalyticsOverview> {
  const until = await rolledUntil(db);
  const [
    sales,
    previousSales,
    series,
    byCourse,
    learners,
    previousLearners,
    learnerPoints,
    certs,
    previousCerts,
    soon,
  ] = await Promise.all([
    salesFigures(db, until, period.current),
    salesFigures(db, until, period.previous),
    salesSeries(db, until, period),
    salesByCourse(db, catalogue, until, period.current),
    learnerFigures(db, until, period.current),
    learnerFigures(db, until, period.previous),
    learnerSeries(db, until, period),
    certificateFigures(db, until, period.current),
    certificateFigures(db, until, period.previous),
    expiringSoon(db, now),
  ]);
  return {
    period: publicPeriod(period),
    sales: { current: sales, previous: previousSales, series, byCourse },
    learners: { current: learners, previous: previousLearners, series: learnerPoints },
    certificates: { expiringSoon: soon, current: certs, previous: previousCerts },
  };
}

// ---- Funnel and stalls ---------------------------------------------------------------------------

/** Cohort learners who share every milestone, and how many they are. */
interface Pattern {
  started: boolean;
  examPassed: boolean;
  idle: boolean;
  passed: boolean[];
  n: number;
}

/**
 * The cohort's milestones, grouped (decision 0045): from the stored rows (`learnerMilestone`) for every
 * learner but those active in the course since the rows were folded, and from the raw rows for those;
 * from the raw rows alone when the course has no stored rows of its current shape. Idle (for the stalls)
 * is always read live: no lesson or graded attempt in the course since `idleSince`.
 */
async function cohortPatterns(
  db: Kysely<DB>,
  course: CatalogueCourse,
  range: Range,
  idleSince: string,
  line: RawBuilder<unknown>,
): Promise<Pattern[]> {
  const courseId = course.card.id;
  const since = await milestonesSince(db, course);
  const idle = sql`case when e."createdAt" < ${idleSince}
    and e."userId" not in (${activeInCourseSince(courseId, idleSince)}) then 1 else 0 end`;
  const cohort = sql`e."courseId" = ${courseId} and ${within("e.createdAt", range)} ${line}`;
  const live = (only: RawBuilder<unknown>) => {
    const learners = sql`select e."userId", ${idle} as idle from enrollment e where ${cohort} ${only}`;
    const flags = funnelModules(course).map((_, i) => sql.ref(`p${i}`));
    return sql<Record<string, unknown>>`
      select idle, started, "examPassed", ${sql.join([...flags, sql`count(*) as n`])}
        from (${milestonesFromRows(course, learners)}) m
       group by ${sql.join([sql`idle`, sql`started`, sql`"examPassed"`, ...flags])}`.execute(db);
  };
  const fromRows = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({
      started: num(r.started) === 1,
      examPassed: num(r.examPassed) === 1,
      idle: num(r.idle) === 1,
      passed: funnelModules(course).map((_, i) => num(r[`p${i}`]) === 1),
      n: num(r.n),
    }));
  if (since === null) return fromRows((await live(sql``)).rows);
  const stale = activeInCourseSince(courseId, since);
  const [stored, recent] = await Promise.all([
    sql<{ started: unknown; examPassed: unknown; modulesPassed: string; idle: unknown; n: unknown }>`
      select started, "examPassed", "modulesPassed", idle, count(*) as n
        from (select coalesce(m.started, 0) as started, coalesce(m."examPassed", 0) as "examPassed",
                     coalesce(m."modulesPassed", ',') as "modulesPassed", ${idle} as idle
                from enrollment e left join "learnerMilestone" m on m."courseId" = ${courseId} and m."userId" = e."userId"
               where ${cohort} and e."userId" not in (${stale})) x
       group by started, "examPassed", "modulesPassed", idle`.execute(db),
    live(sql`and e."userId" in (${stale})`),
  ]);
  return [
    ...stored.rows.map((r) => ({
      started: num(r.started) === 1,
      examPassed: num(r.examPassed) === 1,
      idle: num(r.idle) === 1,
      passed: passedFlags(course, r.modulesPassed),
      n: num(r.n),
    })),
    ...fromRows(recent.rows),
  ];
}

export async function courseFunnel(
  db: Kysely<DB>,
  course: CatalogueCourse | undefined,
  period: Period,
  now = new Date(),
  /** Only the learners on this version line (decision 0055); learners on every version when null. */
  versionLine: number | null = null,
): Promise<CourseFunnel> {
  if (!course) throw notFound("Course not found.");
  const courseId = course.card.id;
  const line = versionLine === null ? sql`` : sql`and e."courseLine" = ${versionLine}`;
  const range = period.current;
  const idleSince = isoOf(now.getTime() - STALL_DAYS * DAY_MS);
  const modules = funnelModules(course);
  const requiresPractical = !!course.practical?.requiredForCertificate;
  // Practicals and certificates are few: read live, from their side (a cross join keeps SQLite from
  // starting at the 25,000 enrolments of a year), so a revoked, reissued or erased one shows at once.
  const figures = (q: Kysely<DB>) =>
    Promise.all([
      cohortPatterns(q, course, range, idleSince, line),
      requiresPractical
        ? sql<{ n: unknown }>`
          select count(distinct s."userId") as n from "practicalSubmission" s cross join enrollment e
           where s."courseId" = ${courseId} and s.status = 'passed' and e."userId" = s."userId"
             and e."courseId" = s."courseId" and ${within("e.createdAt", range)} ${line}`.execute(q)
        : Promise.resolve({ rows: [] as { n: unknown }[] }),
      sql<{ enrolledAt: string; issuedAt: string }>`
      select e."createdAt" as "enrolledAt", min(x."issuedAt") as "issuedAt"
        from certificate x cross join enrollment e
       where x."courseId" = ${courseId} and e."userId" = x."userId" and e."courseId" = x."courseId"
         and ${within("e.createdAt", range)} ${line}
       group by x."userId", e."createdAt"`.execute(q),
    ]);
  // On PostgreSQL each read would otherwise take its own snapshot: a learner whose first activity commits
  // between the stored part and the live part would be counted in both, or in neither.
  const [patterns, practical, certified] =
    engineOf(db) === "postgres"
      ? await db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(figures)
      : await figures(db);
  const count = (test: (p: Pattern) => boolean) => patterns.reduce((sum, p) => sum + (test(p) ? p.n : 0), 0);
  const enrolled = count(() => true);
  const raw: { key: string; label: string; count: number }[] = [
    { key: "enrolled", label: "Enrolled", count: enrolled },
    { key: "first-lesson", label: "First lesson completed", count: count((p) => p.started) },
    ...modules.map((m, i) => ({
      key: `module:${m.id}`,
      label: `Passed ${m.title}`,
      count: count((p) => p.passed[i]!),
    })),
    ...(course.exam ? [{ key: "final-exam", label: "Final exam passed", count: count((p) => p.examPassed) }] : []),
    ...(requiresPractical ? [{ key: "practical", label: "Practical passed", count: num(practical.rows[0]?.n) }] : []),
    { key: "certified", label: "Certified", count: certified.rows.length },
  ];
  const stalls = modules.map((m, i) => {
    const reached = patterns.filter((p) => p.passed.slice(0, i).every(Boolean));
    const stalled = count((p) => reached.includes(p) && !p.passed[i] && p.idle);
    const n = reached.reduce((sum, p) => sum + p.n, 0);
    return { moduleId: m.id, title: m.title, reached: n, stalled, share: ratio(stalled, n) };
  });
  const middle = median(certified.rows.map((r) => (Date.parse(r.issuedAt) - Date.parse(r.enrolledAt)) / DAY_MS));
  return {
    period: publicPeriod(period),
    courseId,
    title: course.card.title,
    steps: raw.map((step, i) => ({
      ...step,
      shareOfEnrolled: ratio(step.count, enrolled),
      shareKept: i === 0 ? null : ratio(step.count, raw[i - 1]!.count),
    })),
    medianDaysToCertificate: middle === null ? null : Math.round(middle * 10) / 10,
    stallDays: STALL_DAYS,
    stalls,
  };
}

// ---- Assessments ---------------------------------------------------------------------------------

export async function assessmentFigures(
  db: Kysely<DB>,
  catalogue: Catalogue,
  period: Period,
  /**
   * One published version of one course (decision 0055): its quizzes and exam, and only the attempts
   * made on it, read from the attempts themselves (the daily rollup does not keep versions).
   */
  only?: CatalogueCourse,
): Promise<AnalyticsAssessments> {
  const part = only ? { rolled: null, live: period.current } : splitRange(period.current, await rolledUntil(db));
  const scope = only ? sql`q."courseId" = ${only.card.id} and q."courseVersion" = ${only.version} and ` : sql``;
  const sameVersion = only ? sql` and o."courseVersion" = q."courseVersion"` : sql``;
  type Row = { courseId: string; moduleId: string } & Totals;
  const rows = new Map<string, Row>();
  const add = (courseId: string, moduleId: string, t: Totals) => {
    const k = `${courseId}\u0000${moduleId}`;
    rows.set(k, { ...sumInto(rows.get(k) ?? {}, t), courseId, moduleId });
  };
  const [a, b] = await Promise.all([
    part.rolled
      ? sql<{ courseId: string; item: string; metric: Metric; v: unknown }>`
          select "courseId", item, metric, sum(value) as v from "analyticsDay"
           where metric in ('attempts', 'scoreSum', 'firsts', 'firstPassed')
             and day >= ${sql.lit(part.rolled.from)} and day < ${sql.lit(part.rolled.to)}
           group by "courseId", item, metric`.execute(db)
      : Promise.resolve({ rows: [] }),
    part.live
      ? sql<{
          courseId: string;
          moduleId: string;
          attempts: unknown;
          scoreSum: unknown;
          firsts: unknown;
          firstPassed: unknown;
        }>`
          select "courseId", "moduleId", count(*) as attempts, sum(score) as "scoreSum",
                 sum(f) as firsts, sum(f * passed) as "firstPassed"
            from (select q."courseId", q."moduleId", q.score, q.passed,
                         case when q."createdAt" = (
                           select min(o."createdAt") from "quizAttempt" o where o."userId" = q."userId"
                              and o."courseId" = q."courseId" and o."moduleId" = q."moduleId"${sameVersion}
                         ) then 1 else 0 end as f
                    from "quizAttempt" q where ${scope}${within("q.createdAt", part.live)}) a
           group by "courseId", "moduleId"`.execute(db)
      : Promise.resolve({ rows: [] }),
  ]);
  for (const r of a.rows) add(r.courseId, r.item, { [r.metric]: num(r.v) });
  for (const r of b.rows)
    add(r.courseId, r.moduleId, {
      attempts: num(r.attempts),
      scoreSum: num(r.scoreSum),
      firsts: num(r.firsts),
      firstPassed: num(r.firstPassed),
    });
  const items: AnalyticsAssessments["items"] = [];
  const figures = (courseId: string, moduleId: string) => {
    const row = rows.get(`${courseId}\u0000${moduleId}`);
    rows.delete(`${courseId}\u0000${moduleId}`);
    const attempts = row?.attempts ?? 0;
    const firsts = row?.firsts ?? 0;
    return {
      attempts,
      firstAttempts: firsts,
      firstTryPassRate: ratio(row?.firstPassed ?? 0, firsts),
      meanScore: attempts > 0 ? Math.round(((row?.scoreSum ?? 0) / attempts) * 10) / 10 : null,
    };
  };
  for (const course of only ? [only] : catalogue.courses) {
    if (course.card.comingSoon && !only) continue;
    const base = { courseId: course.card.id, courseTitle: course.card.title };
    for (const m of course.modules.filter((x) => x.quiz))
      items.push({
        ...base,
        assessment: m.id,
        title: `${m.title}: ${m.quiz!.title}`,
        ...figures(course.card.id, m.id),
      });
    if (course.exam)
      items.push({ ...base, assessment: "exam", title: course.exam.title, ...figures(course.card.id, FINAL_EXAM_ID) });
  }
  // Attempts at anything the catalogue no longer has (a recertification exam, a removed module).
  for (const row of [...rows.values()]) {
    const course = catalogue.byId.get(row.courseId);
    items.push({
      courseId: row.courseId,
      courseTitle: course?.card.title ?? row.courseId,
      assessment: row.moduleId,
      title: row.moduleId,
      ...figures(row.courseId, row.moduleId),
    });
  }
  return { period: publicPeriod(period), items };
}

// ---- CSV ---------------------------------------------------------------------------------------

const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // A leading formula character is neutralised for spreadsheets; a plain number (-16.00) is left alone.
  const formula = typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text);
  const safe = formula ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
const dollars = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));
const share = (value: number | null) => (value === null ? null : (Math.round(value * 1000) / 10).toFixed(1));

function csv(header: string[], rows: (string | number | null)[][]) {
  return `${[header.join(","), ...rows.map((r) => r.map(csvCell).join(","))].join("\r\n")}\r\n`;
}

export async function analyticsCsv(
  db: Kysely<DB>,
  catalogue: Catalogue,
  table: AnalyticsTable,
  period: Period,
  course: CatalogueCourse | undefined,
  /** One version (decision 0055): the funnel's and stalls' learners on its line, or the assessments of that version. */
  only: { line?: number; version?: CatalogueCourse } = {},
): Promise<string> {
  const line = only.line ?? null;
  switch (table) {
    case "sales-over-time":
      return csv(
        ["period_start", "gross_usd", "refunds_usd", "net_usd", "orders"],
        (await salesSeries(db, await rolledUntil(db), period)).map((p) => [
          p.date,
          dollars(p.grossCents),
          dollars(p.refundsCents),
          dollars(p.netCents),
          p.orders,
        ]),
      );
    case "sales-by-course":
      return csv(
        ["course", "title", "gross_usd", "refunds_usd", "net_usd", "orders"],
        (await salesByCourse(db, catalogue, await rolledUntil(db), period.current)).map((c) => [
          c.courseId,
          c.title,
          dollars(c.grossCents),
          dollars(c.refundsCents),
          dollars(c.netCents),
          c.orders,
        ]),
      );
    case "learners-over-time":
      return csv(
        ["period_start", "new_accounts", "enrolments", "active_learners", "course_completions", "certificates_issued"],
        (await learnerSeries(db, await rolledUntil(db), period)).map((p) => [
          p.date,
          p.newAccounts,
          p.enrolments,
          p.activeLearners,
          p.completions,
          p.certificatesIssued,
        ]),
      );
    case "funnel": {
      const f = await courseFunnel(db, course, period, new Date(), line);
      return csv(
        ["step", "learners", "percent_of_enrolled", "percent_kept_from_previous_step"],
        f.steps.map((s) => [s.label, s.count, share(s.shareOfEnrolled), share(s.shareKept)]),
      );
    }
    case "stalls": {
      const f = await courseFunnel(db, course, period, new Date(), line);
      return csv(
        ["module", "title", "reached", `stalled_over_${f.stallDays}_days`, "percent_stalled"],
        f.stalls.map((s) => [s.moduleId, s.title, s.reached, s.stalled, share(s.share)]),
      );
    }
    case "assessments":
      return csv(
        ["course", "assessment", "title", "attempts", "first_attempts", "percent_passed_first_try", "mean_score"],
        (await assessmentFigures(db, catalogue, period, only.version)).items
          .filter((i) => !course || i.courseId === course.card.id)
          .map((i) => [
            i.courseId,
            i.assessment,
            i.title,
            i.attempts,
            i.firstAttempts,
            share(i.firstTryPassRate),
            i.meanScore,
          ]),
      );
  }
}
