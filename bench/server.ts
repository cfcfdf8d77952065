/**
 * The benchmark's app process: the real app in production mode with request logging on (stdout,
 * which the runner sends to a file), on a fresh SQLite file or PostgreSQL schema (BENCH_DB), with
 * the real courses and seeded learners. It counts the statements each route sends with 10 and with
 * many learners seeded, captures each route's exact response for the bare server, and reports to
 * the runner over IPC.
 */
import cluster, { type Worker } from "node:cluster";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { importContent } from "#server/content/content-import.ts";
import { openDatabase } from "#server/db/database.ts";
import { rollUpItemResponses } from "#server/db/item-response-tally.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { itemStatistics } from "#server/modules/courses/item-statistics.ts";
import { must } from "../tests/setup/must.ts";

const port = Number(process.env.BENCH_PORT ?? 3900);
const engine = process.env.BENCH_DB === "postgres" ? "postgres" : "sqlite";
const learners = Number(process.env.BENCH_LEARNERS ?? 100_000);
const secret = "bench-secret-bench-secret-bench-secret";
const dir = mkdtempSync(join(tmpdir(), "academy-bench-"));
const appUrl = `http://127.0.0.1:${port}`;

let databaseUrl = `sqlite:${join(dir, "bench.db")}`;
let schema: string | undefined;
const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
if (engine === "postgres") {
  schema = `bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  await admin.end();
  databaseUrl = pgUrl;
}

const settings = {
  NODE_ENV: "production",
  PAYMENTS_PROVIDER: "sandbox",
  PORT: String(port),
  APP_URL: appUrl,
  AUTH_SECRET: secret,
  DATABASE_URL: databaseUrl,
  MAIL_OUTBOX_DIR: join(dir, "outbox"),
  WEB_CONCURRENCY: process.env.BENCH_WORKERS ?? "1",
  DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "",
};
const config = loadConfig(settings, dir);
const workers = Number(process.env.BENCH_WORKERS ?? 1);
const database = openDatabase(config.databaseUrl, { schema, poolSize: config.databasePoolSize });
await migrateToLatest(database.db, schema ? { schema } : undefined);
await importContent(database.db);
const app = await buildApp({ config, database, logger: true, clientDir: join(dir, "none") });
const db = database.db;

/** The cookie Better Auth sets for a session token. */
const cookieFor = (token: string) =>
  `better-auth.session_token=${encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`)}`;

const course = (
  await db
    .selectFrom("course")
    .select("id")
    .where("comingSoon", "=", false)
    .orderBy("position")
    .executeTakeFirstOrThrow()
).id;
const modules = await db
  .selectFrom("courseModule")
  .select("id")
  .where("courseId", "=", course)
  .orderBy("position")
  .execute();
const lessons = await db
  .selectFrom("lesson")
  .select(["id", "moduleId"])
  .where("courseId", "=", course)
  .orderBy("position")
  .execute();
const module = must(modules[0], "a module of the course").id;
const quiz = JSON.parse(
  (
    await db
      .selectFrom("quiz")
      .select("questions")
      .where("courseId", "=", course)
      .where("moduleId", "=", module)
      .executeTakeFirstOrThrow()
  ).questions,
) as { id: string; correctAnswer: string }[];
/** The whole bank's key: a submission answers the questions its own attempt drew. */
const answerKey = Object.fromEntries(quiz.map((q) => [q.id, q.correctAnswer]));
/** Lessons the write benchmark completes (first module: open to every enrolled learner). */
const openLessons = lessons.filter((l) => l.moduleId === module).map((l) => l.id);
const firstOpenLesson = must(openLessons[0], "an open lesson");
/** Seeded learners' history sits in the last module, so the open lessons stay new to them. */
const seededLessons = lessons.filter((l) => l.moduleId !== module).slice(-3);

/**
 * A seeded attempt's answers: 6 questions of the bank, the first 0-4 of them right (so no seeded
 * learner passes), the others on a wrong option; the item statistics read these.
 */
function seededAnswers(i: number) {
  const right = i % 5;
  const answers: Record<string, string> = {};
  for (let k = 0; k < 6; k++) {
    const q = must(quiz[(i * 7 + k * 3) % quiz.length], "a quiz question");
    answers[q.id] =
      k < right
        ? q.correctAnswer
        : (["a", "b", "c", "d"].find((o) => o !== q.correctAnswer && o.charCodeAt(0) % 3 === (i + k) % 3) ??
          (q.correctAnswer === "a" ? "b" : "a"));
  }
  return { answers: JSON.stringify(answers), correctCount: right, score: Math.round((100 * right) / 6) };
}

/** Learners with a session, an enrolment, a progress row, completed lessons and a quiz attempt, in bulk inserts. */
async function seedLearners(from: number, to: number) {
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const chunk = 1000;
  for (let start = from; start < to; start += chunk) {
    const ids = Array.from({ length: Math.min(chunk, to - start) }, (_, k) => start + k);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("user")
        .values(
          ids.map((i) => ({
            id: `seed-${i}`,
            name: `Seed ${i}`,
            email: `seed${i}@example.com`,
            emailVerified: false,
            image: null,
            firstName: "Seed",
            lastName: String(i),
            role: "learner",
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto("session")
        .values(
          ids.map((i) => ({
            id: `seed-session-${i}`,
            token: `seed-token-${i}`,
            userId: `seed-${i}`,
            expiresAt: later,
            createdAt: now,
            updatedAt: now,
            ipAddress: null,
            userAgent: null,
          })),
        )
        .execute();
      await trx
        .insertInto("enrollment")
        .values(
          ids.map((i) => ({
            id: `seed-e-${i}`,
            userId: `seed-${i}`,
            courseId: course,
            source: "fixture",
            createdAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto("courseProgress")
        .values(
          ids.map((i) => ({
            id: `seed-p-${i}`,
            userId: `seed-${i}`,
            courseId: course,
            isCompleted: false,
            completedAt: null,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .execute();
      await trx
        .insertInto("lessonCompletion")
        .values(
          ids.flatMap((i) =>
            seededLessons.map((l) => ({ userId: `seed-${i}`, courseId: course, lessonId: l.id, completedAt: now })),
          ),
        )
        .execute();
      await trx
        .insertInto("quizAttempt")
        .values(
          ids.map((i) => ({
            id: `seed-q-${i}`,
            userId: `seed-${i}`,
            courseId: course,
            moduleId: module,
            ...seededAnswers(i),
            total: 6,
            passed: false,
            createdAt: now,
          })),
        )
        .execute();
    });
  }
}

// The measured learner is seeded learner 0 (enrolled, with history).
const requests = {
  courses: { method: "GET", url: "/api/courses", signedIn: false },
  courseVisitor: { method: "GET", url: `/api/courses/${course}`, signedIn: false },
  courseEnrolled: { method: "GET", url: `/api/courses/${course}`, signedIn: true },
  progress: { method: "GET", url: `/api/progress/${course}`, signedIn: true },
  quiz: { method: "GET", url: `/api/quiz/${course}/${module}`, signedIn: true },
  // Starting (or resuming) the learner's attempt: a bodiless POST since decision 0051.
  quizStart: { method: "POST", url: `/api/quiz/${course}/${module}/attempt`, signedIn: true },
  lessonComplete: {
    method: "POST",
    url: `/api/progress/${course}/lessons/${openLessons[0]}/complete`,
    signedIn: true,
  },
  profileUpdate: {
    method: "PUT",
    url: "/api/profile",
    signedIn: true,
    body: JSON.stringify({ firstName: "Seed", lastName: "Zero" }),
  },
  quizSubmit: {
    method: "POST",
    url: `/api/quiz/${course}/${module}`,
    signedIn: true,
    // Filled per submission from the learner's own draw (see drawFor).
    body: "{}",
  },
} as const;
type RouteKey = keyof typeof requests;

/** Starts the learner's attempt (POST) and returns the submission body answering what was drawn. */
async function drawFor(learner: number): Promise<string> {
  const res = await inject("quizStart", learner);
  if (res.statusCode !== 200) throw new Error(`quiz draw: ${res.statusCode} ${res.body}`);
  const drawn = res.json() as { attemptId: string; questions: { id: string }[] };
  return JSON.stringify({
    attemptId: drawn.attemptId,
    answers: Object.fromEntries(drawn.questions.map((q) => [q.id, answerKey[q.id]])),
  });
}

/** BENCH_ACCEPT_ENCODING: sent with every read but the quiz submission's draw, as a browser sends it. */
const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING;
function inject(key: RouteKey, learner = 0, lesson = firstOpenLesson, body?: string, compressed = false) {
  const r = requests[key] as { method: "GET" | "POST" | "PUT"; url: string; signedIn: boolean; body?: string };
  const payload = body ?? r.body;
  return app.inject({
    method: r.method,
    url: key === "lessonComplete" ? r.url.replace(firstOpenLesson, lesson) : r.url,
    headers: {
      origin: appUrl,
      ...(compressed && acceptEncoding && r.method === "GET" && key !== "quizSubmit"
        ? { "accept-encoding": acceptEncoding }
        : {}),
      ...(r.signedIn ? { cookie: cookieFor(`seed-token-${learner}`) } : {}),
      ...(payload ? { "content-type": "application/json" } : {}),
    },
    ...(payload ? { payload } : {}),
  });
}

/** Statements per request, averaged over 20 requests (lesson completions: 20 new (learner, lesson) pairs). */
async function statementsPerRequest(firstLearner: number, span: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(requests) as RouteKey[]) {
    // A quiz submission needs its own draw first: one submission per learner, its GET not counted.
    const rounds = key === "quizSubmit" ? Math.min(20, span) : 20;
    let statements = 0;
    for (let i = 0; i < rounds; i++) {
      const body = key === "quizSubmit" ? await drawFor(firstLearner + i) : undefined;
      const before = database.queryCount();
      const res =
        key === "lessonComplete"
          ? await inject(key, firstLearner + (i % span), openLessons[Math.floor(i / span) % openLessons.length])
          : await inject(key, key === "quizSubmit" ? firstLearner + i : 0, undefined, body);
      statements += database.queryCount() - before;
      if (res.statusCode !== 200) throw new Error(`${key}: ${res.statusCode} ${res.body}`);
    }
    out[key] = Math.round(statements / rounds);
  }
  return out;
}

const seedStart = performance.now();
await seedLearners(0, 10);
// The measured quiz read (GET) reads learner 0's open attempt.
await drawFor(0);
const statementsWith10 = await statementsPerRequest(1, 9);
await seedLearners(10, learners);
const seedSeconds = (performance.now() - seedStart) / 1000;
const statementsWithMany = await statementsPerRequest(10, 20);

/** The admin's item statistics over every seeded attempt: the median of 3 runs, in ms. */
async function timeItemStatistics() {
  const bank = await app.deps.catalogue.course(course);
  const times: number[] = [];
  let responses = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const stats = await itemStatistics(db, bank);
    times.push(performance.now() - started);
    responses = stats.items.reduce((sum, item) => sum + item.responses, 0);
  }
  return { ms: Math.round(must(times.sort((a, b) => a - b)[1], "the median of three runs")), responses };
}
/** Attempts the rollup has not taken in yet: the read adds these up live. */
const untallied = async () =>
  Number(
    (
      await db
        .selectFrom("quizAttempt")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("tallied", "=", 0)
        .executeTakeFirstOrThrow()
    ).n,
  );
// The app's rollup job (every 10 s) has taken in most seeded attempts by now. To time the read as it
// was before decision 0039, every attempt is put back outside the running sums; the read then adds
// them all up live. Then the rollup takes them all in at once (as after an upgrade), and the read
// comes from the running sums. The job may take a turn during the live timing; `pending` says how many
// attempts were live when it ended. The rollup's time covers every attempt, whoever moved it.
await db.transaction().execute(async (trx) => {
  // Waits for a rollup turn in progress and keeps the next one out until this is done.
  if (engine === "postgres") await sql`lock table "quizAttempt" in exclusive mode`.execute(trx);
  await trx.updateTable("quizAttempt").set({ tallied: 0 }).execute();
  await trx.deleteFrom("itemResponseTally").execute();
});
const itemStatsLiveRun = await timeItemStatistics();
const itemStatsLive = { ...itemStatsLiveRun, pending: await untallied() };
const rollupStarted = performance.now();
let rolledUp = 0;
// A turn of the app's job may hold part of the batch meanwhile; wait until every attempt is in.
while ((await untallied()) > 0) {
  const moved = await rollUpItemResponses(db);
  rolledUp += moved;
  if (moved === 0) await new Promise((done) => setTimeout(done, 20));
}
const rollupMs = Math.round(performance.now() - rollupStarted);
const itemStats = {
  ...(await timeItemStatistics()),
  live: itemStatsLive,
  rollup: { ms: rollupMs, attempts: rolledUp },
};

// Exact responses, for the bare server to send.
const responses: Record<string, { status: number; headers: Record<string, string | string[]>; body: string }> = {};
// As bytes (base64): a compressed answer is no text.
for (const key of Object.keys(requests) as RouteKey[]) {
  const learner = key === "lessonComplete" ? 40 : key === "quizSubmit" ? 60 : 0;
  const res = await inject(key, learner, undefined, key === "quizSubmit" ? await drawFor(learner) : undefined, true);
  if (res.statusCode !== 200) throw new Error(`${key}: ${res.statusCode} ${res.body}`);
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)) continue;
    if (value !== undefined) kept[name] = Array.isArray(value) ? value : String(value);
  }
  responses[key] = { status: res.statusCode, headers: kept, body: res.rawPayload.toString("base64") };
}

const forked: Worker[] = [];
if (workers > 1) {
  // N app processes on the seeded database, sharing the port through node:cluster.
  await app.close();
  cluster.setupPrimary({ exec: "bench/worker.ts" });
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork({
      BENCH_WORKER_ENV: JSON.stringify({ ...settings, BENCH_DIR: dir }),
      BENCH_WORKER_SCHEMA: schema ?? "",
    });
    forked.push(worker);
    await new Promise<void>((ready) => worker.on("message", (m) => m?.workerReady && ready()));
  }
} else await app.listen({ port, host: "127.0.0.1" });
// For bench/profile-top.ts: the profile's samples from here on are the load, not start-up and seeding.
if (process.env.BENCH_PROFILE)
  writeFileSync(join("bench/profiles", `listening-${process.pid}.txt`), String(process.hrtime.bigint() / 1000n));
process.send?.({
  workers,
  ready: true,
  url: appUrl,
  engine,
  learners,
  seedSeconds,
  secret,
  requests,
  answerKey,
  openLessons,
  responses,
  statementsWith10,
  statementsWithMany,
  itemStats,
});

process.on("SIGTERM", () => {
  void (async () => {
    for (const worker of forked) worker.process.kill("SIGTERM");
    await Promise.all(forked.map((w) => new Promise((done) => w.on("exit", done))));
    if (workers <= 1) await app.close();
    await database.close();
    if (schema) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});
