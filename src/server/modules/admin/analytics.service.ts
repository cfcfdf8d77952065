import { type Kysely, type RawBuilder, sql } from "kysely";
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
import { type Engine, engineOf, toIso } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { FINAL_EXAM_ID } from "../progress/learner-state.ts";

/**
 * The owner's dashboard (docs/decisions/0030): every figure is one aggregate statement over orders,
 * enrolments, progress, attempts and certificates, on both engines; rows about a person never leave
 * the database, only counts and sums.
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

// ---- Sales -------------------------------------------------------------------------------------

/** Paid orders have a price above zero; a free coupon claim is an order of 0 and counts only as a coupon use. */
async function salesFigures(db: Kysely<DB>, range: Range): Promise<SalesFigures> {
  const [paid, refunded] = await Promise.all([
    sql<{ gross: unknown; orders: unknown; couponUses: unknown }>`
      select coalesce(sum(amount), 0) as gross,
             coalesce(sum(case when amount > 0 then 1 else 0 end), 0) as orders,
             coalesce(sum(case when "couponId" is not null then 1 else 0 end), 0) as "couponUses"
        from "order" where ${within("paidAt", range)}`.execute(db),
    sql<{ refunds: unknown; refundCount: unknown }>`
      select coalesce(sum(amount), 0) as refunds, count(*) as "refundCount"
        from "order" where status = 'refunded' and amount > 0 and ${within("refundedAt", range)}`.execute(db),
  ]);
  const gross = num(paid.rows[0]?.gross);
  const orders = num(paid.rows[0]?.orders);
  const refunds = num(refunded.rows[0]?.refunds);
  const refundCount = num(refunded.rows[0]?.refundCount);
  return {
    grossCents: gross,
    refundsCents: refunds,
    netCents: gross - refunds,
    orders,
    averageOrderCents: orders > 0 ? Math.round(gross / orders) : null,
    couponUses: num(paid.rows[0]?.couponUses),
    refundCount,
    refundRate: ratio(refundCount, orders),
  };
}

async function salesSeries(db: Kysely<DB>, period: Period) {
  const engine = engineOf(db as Kysely<any>);
  const { size, dates } = bucketDates(period);
  const [paid, refunded] = await Promise.all([
    sql<{ b: unknown; gross: unknown; orders: unknown }>`
      select ${bucketOf(engine, col("paidAt"), period.current.from, size)} as b,
             sum(amount) as gross, sum(case when amount > 0 then 1 else 0 end) as orders
        from "order" where ${within("paidAt", period.current)} group by 1`.execute(db),
    sql<{ b: unknown; refunds: unknown }>`
      select ${bucketOf(engine, col("refundedAt"), period.current.from, size)} as b, sum(amount) as refunds
        from "order" where status = 'refunded' and amount > 0 and ${within("refundedAt", period.current)}
       group by 1`.execute(db),
  ]);
  const points = dates.map((date) => ({ date, grossCents: 0, refundsCents: 0, netCents: 0, orders: 0 }));
  for (const r of paid.rows) {
    const p = points[num(r.b)];
    if (!p) continue;
    p.grossCents += num(r.gross);
    p.orders += num(r.orders);
  }
  for (const r of refunded.rows) {
    const p = points[num(r.b)];
    if (p) p.refundsCents += num(r.refunds);
  }
  for (const p of points) p.netCents = p.grossCents - p.refundsCents;
  return points;
}

async function salesByCourse(db: Kysely<DB>, catalogue: Catalogue, range: Range) {
  const [paid, refunded] = await Promise.all([
    sql<{ courseId: string; gross: unknown; orders: unknown }>`
      select "courseId", sum(amount) as gross, sum(case when amount > 0 then 1 else 0 end) as orders
        from "order" where ${within("paidAt", range)} group by "courseId"`.execute(db),
    sql<{ courseId: string; refunds: unknown }>`
      select "courseId", sum(amount) as refunds from "order"
       where status = 'refunded' and amount > 0 and ${within("refundedAt", range)} group by "courseId"`.execute(db),
  ]);
  const ids = new Set([...paid.rows.map((r) => r.courseId), ...refunded.rows.map((r) => r.courseId)]);
  const ordered = [
    ...catalogue.courses.map((c) => c.card.id).filter((id) => ids.has(id)),
    ...[...ids].filter((id) => !catalogue.byId.has(id)).sort(),
  ];
  return ordered.map((courseId) => {
    const p = paid.rows.find((r) => r.courseId === courseId);
    const grossCents = num(p?.gross);
    const refundsCents = num(refunded.rows.find((r) => r.courseId === courseId)?.refunds);
    return {
      courseId,
      title: catalogue.byId.get(courseId)?.card.title ?? courseId,
      grossCents,
      refundsCents,
      netCents: grossCents - refundsCents,
      orders: num(p?.orders),
    };
  });
}

// ---- Learners ----------------------------------------------------------------------------------

/** Lesson completions and graded attempts: what makes a learner active. */
const activity = (range: Range) => sql`
  select "userId", "completedAt" as at from "lessonCompletion" where ${within("completedAt", range)}
  union all
  select "userId", "createdAt" as at from "quizAttempt" where ${within("createdAt", range)}`;

async function learnerFigures(db: Kysely<DB>, range: Range): Promise<LearnerFigures> {
  const [accounts, enrolments, active, completions, certificates] = await Promise.all([
    sql<{ n: unknown }>`select count(*) as n from "user" where ${within("createdAt", range)}`.execute(db),
    sql<{ source: string; n: unknown }>`
      select source, count(*) as n from enrollment where ${within("createdAt", range)} group by source`.execute(db),
    sql<{ n: unknown }>`select count(distinct "userId") as n from (${activity(range)}) a`.execute(db),
    sql<{ n: unknown }>`
      select count(*) as n from "courseProgress" where "isCompleted" = 1 and ${within("completedAt", range)}`.execute(
      db,
    ),
    sql<{ n: unknown }>`select count(*) as n from certificate where ${within("issuedAt", range)}`.execute(db),
  ]);
  const by = (source: string) => num(enrolments.rows.find((r) => r.source === source)?.n);
  return {
    newAccounts: num(accounts.rows[0]?.n),
    enrolments: {
      paid: by("purchase"),
      freeCoupon: by("coupon"),
      admin: by("admin"),
      total: enrolments.rows.reduce((s, r) => s + num(r.n), 0),
    },
    activeLearners: num(active.rows[0]?.n),
    completions: num(completions.rows[0]?.n),
    certificatesIssued: num(certificates.rows[0]?.n),
  };
}

async function learnerSeries(db: Kysely<DB>, period: Period) {
  const engine = engineOf(db as Kysely<any>);
  const { size, dates } = bucketDates(period);
  const range = period.current;
  const b = (column: string) => bucketOf(engine, col(column), range.from, size);
  const counts = (table: string, column: string, extra = sql`1 = 1`) =>
    sql<{ b: unknown; n: unknown }>`
      select ${b(column)} as b, count(*) as n from ${sql.table(table)}
       where ${extra} and ${within(column, range)} group by 1`.execute(db);
  const [accounts, enrolments, active, completions, certificates] = await Promise.all([
    counts("user", "createdAt"),
    counts("enrollment", "createdAt"),
    sql<{ b: unknown; n: unknown }>`
      select ${b("at")} as b, count(distinct "userId") as n from (${activity(range)}) a group by 1`.execute(db),
    counts("courseProgress", "completedAt", sql`"isCompleted" = 1`),
    counts("certificate", "issuedAt"),
  ]);
  const points = dates.map((date) => ({
    date,
    newAccounts: 0,
    enrolments: 0,
    activeLearners: 0,
    completions: 0,
    certificatesIssued: 0,
  }));
  const fill = (rows: { b: unknown; n: unknown }[], key: Exclude<keyof (typeof points)[number], "date">) => {
    for (const r of rows) {
      const p = points[num(r.b)];
      if (p) p[key] += num(r.n);
    }
  };
  fill(accounts.rows, "newAccounts");
  fill(enrolments.rows, "enrolments");
  fill(active.rows, "activeLearners");
  fill(completions.rows, "completions");
  fill(certificates.rows, "certificatesIssued");
  return points;
}

// ---- Certificates ------------------------------------------------------------------------------

async function certificateFigures(db: Kysely<DB>, range: Range) {
  const [renewed, revoked, issued] = await Promise.all([
    sql<{ n: unknown }>`select count(*) as n from "certificateRenewal" where ${within("renewedAt", range)}`.execute(db),
    sql<{ n: unknown }>`select count(*) as n from certificate where ${within("revokedAt", range)}`.execute(db),
    sql<{ n: unknown }>`select count(*) as n from certificate where ${within("issuedAt", range)}`.execute(db),
  ]);
  return { issued: num(issued.rows[0]?.n), renewed: num(renewed.rows[0]?.n), revoked: num(revoked.rows[0]?.n) };
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
    salesFigures(db, period.current),
    salesFigures(db, period.previous),
    salesSeries(db, period),
    salesByCourse(db, catalogue, period.current),
    learnerFigures(db, period.current),
    learnerFigures(db, period.previous),
    learnerSeries(db, period),
    certificateFigures(db, period.current),
    certificateFigures(db, period.previous),
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

/**
 * A module is passed when its quiz has a passing attempt, or (a module without a quiz) when every one
 * of its lessons is complete. One row per learner of the cohort and module passed.
 */
function passedModules(course: CatalogueCourse) {
  const quizModules = course.modules.filter((m) => m.quiz).map((m) => m.id);
  const plain = course.modules.filter((m) => !m.quiz && m.lessons.length > 0);
  const branches = [];
  if (quizModules.length > 0)
    branches.push(sql`
      select distinct q."userId", q."moduleId" from cohort c cross join "quizAttempt" q
       where q."userId" = c."userId" and q."courseId" = ${course.card.id} and q.passed = 1
         and q."moduleId" in (${sql.join(quizModules)})`);
  if (plain.length > 0) {
    const lessonCount = sql`case l."moduleId" ${sql.join(
      plain.map((m) => sql`when ${m.id} then ${sql.lit(m.lessons.length)}`),
      sql` `,
    )} end`;
    branches.push(sql`
      select lc."userId", l."moduleId" from cohort c cross join "lessonCompletion" lc
        join lesson l on l."courseId" = lc."courseId" and l.id = lc."lessonId"
       where lc."userId" = c."userId" and lc."courseId" = ${course.card.id} and l."moduleId" in (${sql.join(plain.map((m) => m.id))})
       group by lc."userId", l."moduleId" having count(*) >= ${lessonCount}`);
  }
  return branches.length > 0
    ? sql.join(branches, sql` union `)
    : sql`select null as "userId", null as "moduleId" where 1 = 0`;
}

export async function courseFunnel(
  db: Kysely<DB>,
  course: CatalogueCourse | undefined,
  period: Period,
  now = new Date(),
): Promise<CourseFunnel> {
  if (!course) throw notFound("Course not found.");
  const courseId = course.card.id;
  const range = period.current;
  const idleSince = isoOf(now.getTime() - STALL_DAYS * DAY_MS);
  const cohort = sql`
    select e."userId", e."createdAt",
           case when e."createdAt" < ${idleSince}
                 and not exists (select 1 from "lessonCompletion" l where l."userId" = e."userId"
                                  and l."courseId" = ${courseId} and l."completedAt" >= ${idleSince})
                 and not exists (select 1 from "quizAttempt" q where q."userId" = e."userId"
                                  and q."courseId" = ${courseId} and q."createdAt" >= ${idleSince})
                then 1 else 0 end as idle
      from enrollment e where e."courseId" = ${courseId} and ${within("e.createdAt", range)}`;
  const modules = course.modules.filter((m) => m.quiz || m.lessons.length > 0);
  const flags = modules.map(
    (m, i) => sql`max(case when p."moduleId" = ${m.id} then 1 else 0 end) as ${sql.ref(`p${i}`)}`,
  );
  const flagRefs = modules.map((_, i) => sql.ref(`p${i}`));
  const requiresPractical = !!course.practical?.requiredForCertificate;
  const [steps, patterns, certified] = await Promise.all([
    sql<{ enrolled: unknown; started: unknown; exam: unknown; practical: unknown; certified: unknown }>`
      with cohort as materialized (${cohort})
      select count(*) as enrolled,
        coalesce(sum(case when exists (select 1 from "lessonCompletion" l where l."userId" = c."userId"
          and l."courseId" = ${courseId}) then 1 else 0 end), 0) as started,
        coalesce(sum(case when exists (select 1 from "quizAttempt" q where q."userId" = c."userId"
          and q."courseId" = ${courseId} and q."moduleId" = ${FINAL_EXAM_ID} and q.passed = 1) then 1 else 0 end), 0) as exam,
        coalesce(sum(case when exists (select 1 from "practicalSubmission" s where s."userId" = c."userId"
          and s."courseId" = ${courseId} and s.status = 'passed') then 1 else 0 end), 0) as practical,
        coalesce(sum(case when exists (select 1 from certificate x where x."userId" = c."userId"
          and x."courseId" = ${courseId}) then 1 else 0 end), 0) as certified
      from cohort c`.execute(db),
    modules.length === 0
      ? Promise.resolve({ rows: [] as Record<string, unknown>[] })
      : sql<Record<string, unknown>>`
      with cohort as materialized (${cohort}), passed as (${passedModules(course)}),
      per as (
        select c."userId", c.idle, ${sql.join(flags)}
          from cohort c left join passed p on p."userId" = c."userId"
         group by c."userId", c.idle)
      select idle, ${sql.join(flagRefs)}, count(*) as n from per group by idle, ${sql.join(flagRefs)}`.execute(db),
    sql<{ enrolledAt: Date | string; issuedAt: Date | string }>`
      with cohort as materialized (${cohort})
      select c."createdAt" as "enrolledAt", min(x."issuedAt") as "issuedAt"
        from cohort c join certificate x on x."userId" = c."userId" and x."courseId" = ${courseId}
       group by c."userId", c."createdAt"`.execute(db),
  ]);
  const s = steps.rows[0];
  const enrolled = num(s?.enrolled);
  const passedCount = modules.map((_, i) =>
    patterns.rows.reduce((sum, r) => sum + (num(r[`p${i}`]) === 1 ? num(r.n) : 0), 0),
  );
  const raw: { key: string; label: string; count: number }[] = [
    { key: "enrolled", label: "Enrolled", count: enrolled },
    { key: "first-lesson", label: "First lesson completed", count: num(s?.started) },
    ...modules.map((m, i) => ({ key: `module:${m.id}`, label: `Passed ${m.title}`, count: passedCount[i]! })),
    ...(course.exam ? [{ key: "final-exam", label: "Final exam passed", count: num(s?.exam) }] : []),
    ...(requiresPractical ? [{ key: "practical", label: "Practical passed", count: num(s?.practical) }] : []),
    { key: "certified", label: "Certified", count: num(s?.certified) },
  ];
  const stalls = modules.map((m, i) => {
    let reached = 0;
    let stalled = 0;
    for (const r of patterns.rows) {
      const n = num(r.n);
      const before = modules.slice(0, i).every((_, j) => num(r[`p${j}`]) === 1);
      if (!before) continue;
      reached += n;
      if (num(r[`p${i}`]) !== 1 && num(r.idle) === 1) stalled += n;
    }
    return { moduleId: m.id, title: m.title, reached, stalled, share: ratio(stalled, reached) };
  });
  const days = certified.rows
    .map((r) => (Date.parse(toIso(r.issuedAt)) - Date.parse(toIso(r.enrolledAt))) / DAY_MS)
    .sort((a, b) => a - b);
  const mid = Math.floor(days.length / 2);
  const median = days.length === 0 ? null : days.length % 2 ? days[mid]! : (days[mid - 1]! + days[mid]!) / 2;
  return {
    period: publicPeriod(period),
    courseId,
    title: course.card.title,
    steps: raw.map((step, i) => ({
      ...step,
      shareOfEnrolled: ratio(step.count, enrolled),
      shareKept: i === 0 ? null : ratio(step.count, raw[i - 1]!.count),
    })),
    medianDaysToCertificate: median === null ? null : Math.round(median * 10) / 10,
    stallDays: STALL_DAYS,
    stalls,
  };
}

// ---- Assessments ---------------------------------------------------------------------------------

export async function assessmentFigures(
  db: Kysely<DB>,
  catalogue: Catalogue,
  period: Period,
): Promise<AnalyticsAssessments> {
  const r = await sql<{
    courseId: string;
    moduleId: string;
    attempts: unknown;
    meanScore: unknown;
    firsts: unknown;
    firstPassed: unknown;
  }>`
    select "courseId", "moduleId", count(*) as attempts, avg(score) as "meanScore",
           sum(f) as firsts, sum(f * passed) as "firstPassed"
      from (select q."courseId", q."moduleId", q.score, q.passed,
                   case when q."createdAt" = (
                     select min(o."createdAt") from "quizAttempt" o where o."userId" = q."userId"
                        and o."courseId" = q."courseId" and o."moduleId" = q."moduleId"
                   ) then 1 else 0 end as f
              from "quizAttempt" q where ${within("q.createdAt", period.current)}) a
     group by "courseId", "moduleId"`.execute(db);
  const rows = new Map(r.rows.map((row) => [`${row.courseId}\u0000${row.moduleId}`, row]));
  const items: AnalyticsAssessments["items"] = [];
  const figures = (courseId: string, moduleId: string) => {
    const row = rows.get(`${courseId}\u0000${moduleId}`);
    rows.delete(`${courseId}\u0000${moduleId}`);
    const attempts = num(row?.attempts);
    const firsts = num(row?.firsts);
    return {
      attempts,
      firstAttempts: firsts,
      firstTryPassRate: ratio(num(row?.firstPassed), firsts),
      meanScore: attempts > 0 ? Math.round(num(row?.meanScore) * 10) / 10 : null,
    };
  };
  for (const course of catalogue.courses) {
    if (course.card.comingSoon) continue;
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
): Promise<string> {
  switch (table) {
    case "sales-over-time":
      return csv(
        ["period_start", "gross_usd", "refunds_usd", "net_usd", "orders"],
        (await salesSeries(db, period)).map((p) => [
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
        (await salesByCourse(db, catalogue, period.current)).map((c) => [
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
        (await learnerSeries(db, period)).map((p) => [
          p.date,
          p.newAccounts,
          p.enrolments,
          p.activeLearners,
          p.completions,
          p.certificatesIssued,
        ]),
      );
    case "funnel": {
      const f = await courseFunnel(db, course, period);
      return csv(
        ["step", "learners", "percent_of_enrolled", "percent_kept_from_previous_step"],
        f.steps.map((s) => [s.label, s.count, share(s.shareOfEnrolled), share(s.shareKept)]),
      );
    }
    case "stalls": {
      const f = await courseFunnel(db, course, period);
      return csv(
        ["module", "title", "reached", `stalled_over_${f.stallDays}_days`, "percent_stalled"],
        f.stalls.map((s) => [s.moduleId, s.title, s.reached, s.stalled, share(s.share)]),
      );
    }
    case "assessments":
      return csv(
        ["course", "assessment", "title", "attempts", "first_attempts", "percent_passed_first_try", "mean_score"],
        (await assessmentFigures(db, catalogue, period)).items.map((i) => [
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
