/**
 * The owner's dashboard at scale (part of npm run bench; alone: npm run bench:analytics). Seeds, on
 * SQLite and on PostgreSQL, 100,000 learners spread over the last year with an order each (1 in 20
 * refunded), 1,000,000 lesson completions, 300,000 quiz attempts and 10,000 completed courses with
 * certificates, runs the daily rollup (decision 0038, with the funnel's milestones of decision 0045: its
 * first build, then one more turn, timed), then
 * times each dashboard request through the real app (median of 3 after a warm-up).
 * Measures; asserts nothing. Target: every request under 300 ms.
 *
 * BENCH_ANALYTICS_LEARNERS=N  learners (default 100,000; completions 10 and attempts 3 per learner)
 * BENCH_ANALYTICS_DB=sqlite|postgres|both (default both); BENCH_DATABASE_URL as in bench/run.ts
 * BENCH_ANALYTICS_LIVE=1      also time each request before the rollup (every figure from the raw rows)
 * BENCH_ANALYTICS_KEEP=1      keep the SQLite file or PostgreSQL schema (printed) to look at query plans
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { importContent } from "#server/content/content-import.ts";
import { type Engine, openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import type { DB } from "#server/db/schema.ts";
import { rollUpAnalytics } from "#server/modules/admin/analytics-rollup.ts";

const LEARNERS = Number(process.env.BENCH_ANALYTICS_LEARNERS ?? 100_000);
const engines =
  (process.env.BENCH_ANALYTICS_DB ?? "both") === "both" ? ["sqlite", "postgres"] : [process.env.BENCH_ANALYTICS_DB!];
const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const secret = "bench-secret-bench-secret-bench-secret";
const DAY = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const dayAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);

/** A timestamp `days` days before now plus `hours` hours, in each engine's own type. */
function stamp(engine: Engine, base: string, days: ReturnType<typeof sql>, hours: ReturnType<typeof sql>) {
  return engine === "postgres"
    ? sql`(${base}::timestamptz - (${days}) * interval '1 day' + (${hours}) * interval '1 hour')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${base}, '-' || (${days}) || ' days', (${hours}) || ' hours')`;
}

/** Scratch tables the seed builds its rows from. */
type SeedTables = {
  benchN: { i: number };
  benchCourse: { k: number; courseId: string; price: number };
  benchModule: { courseId: string; j: number; moduleId: string };
};

async function seed(db: Kysely<DB & SeedTables>, engine: Engine) {
  const now = new Date().toISOString();
  const courses = await db
    .selectFrom("course")
    .select(["id", "price"])
    .where("comingSoon", "=", false)
    .orderBy("position")
    .execute();
  const modules = await db.selectFrom("courseModule").select(["courseId", "id", "position"]).execute();
  await db.schema
    .createTable("benchN")
    .addColumn("i", "integer", (c) => c.primaryKey())
    .execute();
  await db.schema
    .createTable("benchCourse")
    .addColumn("k", "integer", (c) => c.primaryKey())
    .addColumn("courseId", "text")
    .addColumn("price", "integer")
    .execute();
  await db.schema
    .createTable("benchModule")
    .addColumn("courseId", "text")
    .addColumn("j", "integer")
    .addColumn("moduleId", "text")
    .execute();
  await db
    .insertInto("benchCourse")
    .values(courses.map((c, k) => ({ k, courseId: c.id, price: c.price })))
    .execute();
  await db
    .insertInto("benchModule")
    .values(
      courses.flatMap((c) =>
        modules
          .filter((m) => m.courseId === c.id)
          .sort((a, b) => a.position - b.position)
          .map((m, j) => ({ courseId: c.id, j, moduleId: m.id })),
      ),
    )
    .execute();
  await sql`insert into "benchN" (i) with recursive n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(LEARNERS - 1)}) select i from n`.execute(
    db,
  );
  const nc = sql.lit(courses.length);
  // Learner i joined (i % 365) days ago, at a time of day that varies.
  const joined = (plusHours: ReturnType<typeof sql>) => stamp(engine, now, sql`n.i % 365`, plusHours);
  await sql`insert into "user" (id, name, email, "emailVerified", image, "firstName", "lastName", role, "createdAt", "updatedAt")
    select 'b-' || n.i, 'Bench Learner', 'b' || n.i || '@example.com', false, null, 'Bench', 'Learner', 'learner',
           ${joined(sql`-(n.i % 12)`)}, ${joined(sql`-(n.i % 12)`)} from "benchN" n`.execute(db);
  await sql`insert into enrollment (id, "userId", "courseId", source, "createdAt")
    select 'be-' || n.i, 'b-' || n.i, c."courseId", case when n.i % 10 = 0 then 'admin' when n.i % 10 = 1 then 'coupon' else 'purchase' end,
           ${joined(sql`0`)}
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc}`.execute(db);
  await sql`insert into "order" (id, "userId", "courseId", amount, "originalAmount", currency, "couponId", "couponCode",
      provider, "providerPaymentId", "providerSessionId", kind, status, "ownershipKey", "refundReason", "paidAt",
      "refundId", "refundedAt", "createdAt", "updatedAt")
    select 'bo-' || n.i, 'b-' || n.i, c."courseId", case when n.i % 10 = 1 then 0 else c.price end, c.price, 'usd', null, null,
           'sandbox', 'bench-pay-' || n.i, null, case when n.i % 10 = 1 then 'free' else 'intent' end,
           case when n.i % 20 = 7 then 'refunded' else 'paid' end,
           case when n.i % 20 = 7 then null else 'b-' || n.i || ':' || c."courseId" end,
           case when n.i % 20 = 7 then 'admin' else null end, ${joined(sql`0`)},
           case when n.i % 20 = 7 then 're-' || n.i else null end,
           case when n.i % 20 = 7 then ${joined(sql`48`)} else null end, ${joined(sql`0`)}, ${joined(sql`0`)}
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc} where n.i % 10 <> 0`.execute(db);
  // Learner i completed the first (i % 21) lessons of their course, one an hour: 10 on average.
  await sql`insert into "lessonCompletion" ("userId", "courseId", "lessonId", "completedAt")
    select 'b-' || n.i, l."courseId", l.id, ${joined(sql`l.position + 1`)}
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc}
      join lesson l on l."courseId" = c."courseId" and l.position < n.i % 21`.execute(db);
  // Three attempts each, at the first three modules' quizzes; one in three fails.
  await sql`insert into "quizAttempt" (id, "userId", "courseId", "moduleId", score, "correctCount", total, passed, answers, "createdAt")
    select 'bq-' || n.i || '-' || m.j, 'b-' || n.i, m."courseId", m."moduleId",
           case when (n.i + m.j) % 3 = 0 then 60 else 90 end, 0, 10,
           case when (n.i + m.j) % 3 = 0 then 0 else 1 end, '{}', ${joined(sql`24 * (m.j + 1)`)}
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc}
      join "benchModule" m on m."courseId" = c."courseId" and m.j < 3`.execute(db);
  // One learner in ten completed the course and holds a certificate, issued 30 days after enrolling.
  await sql`insert into "courseProgress" (id, "userId", "courseId", "isCompleted", "completedAt", "createdAt", "updatedAt")
    select 'bp-' || n.i, 'b-' || n.i, c."courseId", case when n.i % 10 = 3 then 1 else 0 end,
           case when n.i % 10 = 3 then ${joined(sql`24 * 30`)} else null end, ${joined(sql`0`)}, ${joined(sql`0`)}
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc}`.execute(db);
  await sql`insert into certificate (id, "certificateId", "userId", "courseId", "firstName", "lastName", "completedAt", "expiresAt", "issuedAt", "revokedAt", "revokedReason")
    select 'bc-' || n.i, 'HWA-BENCH' || n.i, 'b-' || n.i, c."courseId", 'Bench', 'Learner', ${joined(sql`24 * 30`)},
           ${joined(sql`24 * (30 + 730)`)}, ${joined(sql`24 * 30`)}, null, null
      from "benchN" n join "benchCourse" c on c.k = n.i % ${nc} where n.i % 10 = 3`.execute(db);
  // The admin who reads the dashboard.
  await db
    .insertInto("user")
    .values({
      id: "bench-admin",
      name: "Bench Admin",
      email: "bench-admin@example.com",
      emailVerified: true,
      image: null,
      firstName: "Bench",
      lastName: "Admin",
      role: "admin",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await db
    .insertInto("session")
    .values({
      id: "bench-admin-session",
      token: "bench-admin-token",
      userId: "bench-admin",
      expiresAt: new Date(Date.now() + DAY).toISOString(),
      createdAt: now,
      updatedAt: now,
      ipAddress: null,
      userAgent: null,
    })
    .execute();
  for (const table of ["benchN", "benchCourse", "benchModule"]) await db.schema.dropTable(table).execute();
  if (engine === "postgres") await sql`analyze`.execute(db);
  else await sql`analyze`.execute(db);
  const count = async (table: string) =>
    Number((await sql<{ n: unknown }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
  return {
    course: courses[0]!.id,
    // Learners 3, 13, 23... hold the certificates: with four courses, the second course has 5,000 of them.
    certifiedCourse: courses[1 % courses.length]!.id,
    counts: {
      learners: LEARNERS,
      lessonCompletions: await count("lessonCompletion"),
      attempts: await count("quizAttempt"),
      orders: await count("order"),
      certificates: await count("certificate"),
    },
  };
}

async function run(engine: Engine) {
  const dir = mkdtempSync(join(tmpdir(), "academy-bench-analytics-"));
  let schema: string | undefined;
  let url = `sqlite:${join(dir, "bench.db")}`;
  if (engine === "postgres") {
    schema = `bench_analytics_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade; create schema ${schema}`);
    await admin.end();
    url = pgUrl;
  }
  const config = loadConfig(
    {
      NODE_ENV: "production",
      PAYMENTS_PROVIDER: "sandbox",
      APP_URL: "http://127.0.0.1:3990",
      AUTH_SECRET: secret,
      DATABASE_URL: url,
      MAIL_OUTBOX_DIR: join(dir, "outbox"),
      PAYMENTS_RECONCILE_SECONDS: "0",
      CERTIFICATE_REMINDER_SWEEP_SECONDS: "0",
      // The bench runs and times the rollup itself.
      ANALYTICS_ROLLUP_MINUTES: "0",
      // Seeding a million rows in one statement outlasts the production limit; the requests are timed, not cut.
      DATABASE_STATEMENT_TIMEOUT_SECONDS: "0",
    },
    dir,
  );
  const database = openDatabase(config.databaseUrl, {
    ...(schema ? { schema } : {}),
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
  try {
    await migrateToLatest(database.db, schema ? { schema } : undefined);
    await importContent(database.db);
    const seedStarted = performance.now();
    const { course, certifiedCourse, counts } = await seed(database.db.withTables<SeedTables>(), engine);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const app = await buildApp({ config, database, logger: false, clientDir: join(dir, "none") });
    await app.ready();
    const token = "bench-admin-token";
    const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`)}`;
    const last30 = `from=${dayAgo(29)}&to=${today}`;
    const year = `from=${dayAgo(364)}&to=${today}`;
    const requests: [string, string][] = [
      ["overview, last 30 days", `/api/admin/analytics/overview?${last30}`],
      ["overview, last 365 days (weekly)", `/api/admin/analytics/overview?${year}`],
      ["funnel, last 30 days", `/api/admin/analytics/funnel?${last30}&courseId=${course}`],
      ["funnel, last 365 days", `/api/admin/analytics/funnel?${year}&courseId=${course}`],
      [
        "funnel, last 365 days, a course with certificates",
        `/api/admin/analytics/funnel?${year}&courseId=${certifiedCourse}`,
      ],
      ["assessments, last 30 days", `/api/admin/analytics/assessments?${last30}`],
      ["assessments, last 365 days", `/api/admin/analytics/assessments?${year}`],
      ["CSV sales over time, 365 days", `/api/admin/analytics/export.csv?table=sales-over-time&${year}`],
    ];
    console.log(
      `\nOwner analytics on ${engine}: ${counts.learners.toLocaleString("en")} learners, ${counts.lessonCompletions.toLocaleString("en")} lesson completions, ${counts.attempts.toLocaleString("en")} attempts, ${counts.orders.toLocaleString("en")} orders, ${counts.certificates.toLocaleString("en")} certificates (seeded in ${seedSeconds.toFixed(0)} s)`,
    );
    const timeAll = async (heading: string) => {
      console.log(`\n${heading}\n`);
      console.log("| request | median ms | min ms | max ms | under 300 ms |");
      console.log("| --- | ---: | ---: | ---: | :---: |");
      for (const [label, path] of requests) await timeOne(label, path);
    };
    const timeOne = async (label: string, path: string) => {
      const times: number[] = [];
      for (let i = 0; i < 4; i++) {
        const started = performance.now();
        const res = await app.inject({ method: "GET", url: path, headers: { cookie } });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
        if (i > 0) times.push(ms); // the first is the warm-up
        // Far over the target: one run says enough, and spares the machine.
        if (i === 0 && ms > 5000) {
          times.push(ms, ms, ms);
          break;
        }
      }
      times.sort((a, b) => a - b);
      const median = times[1]!;
      const single = times[0] === times[2] && times[0]! > 5000;
      console.log(
        `| ${label}${single ? " (one run)" : ""} | ${median.toFixed(0)} | ${times[0]!.toFixed(0)} | ${times[2]!.toFixed(0)} | ${median < 300 ? "yes" : "no"} |`,
      );
    };
    if (process.env.BENCH_ANALYTICS_LIVE === "1") await timeAll(`${engine}, before the rollup (raw rows only):`);
    const first = performance.now();
    await rollUpAnalytics(database.db);
    const firstMs = performance.now() - first;
    const again = performance.now();
    await rollUpAnalytics(database.db);
    const againMs = performance.now() - again;
    console.log(
      `\nRollup on ${engine}: first build ${(firstMs / 1000).toFixed(1)} s, a later turn ${(againMs / 1000).toFixed(1)} s`,
    );
    await timeAll(`${engine}, finished days from the rollup, today from the raw rows:`);
    await app.close();
  } finally {
    await database.close();
    if (schema && process.env.BENCH_ANALYTICS_KEEP === "1") console.log(`Kept schema ${schema}`);
    else if (schema) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    if (process.env.BENCH_ANALYTICS_KEEP === "1" && !schema) console.log(`Kept ${join(dir, "bench.db")}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

for (const engine of engines) await run(engine as Engine);
process.exit(0);
