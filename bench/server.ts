/**
 * The benchmark's server: the real app on a fresh SQLite database with the real courses, a learner
 * enrolled in the first course, and beside each measured route a bare route that sends the same
 * bytes from memory. It prints one JSON line with what the load generator needs, then serves.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { importContent } from "#server/content/content-import.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

const port = Number(process.env.BENCH_PORT ?? 3900);
const dir = mkdtempSync(join(tmpdir(), "academy-bench-"));
const appUrl = `http://127.0.0.1:${port}`;
const config = loadConfig(
  {
    NODE_ENV: "production",
    PAYMENTS_PROVIDER: "sandbox",
    PORT: String(port),
    APP_URL: appUrl,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    DATABASE_URL: `sqlite:${join(dir, "bench.db")}`,
    MAIL_OUTBOX_DIR: join(dir, "outbox"),
  },
  dir,
);
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database.db);
await importContent(database.db);
const app = await buildApp({ config, database, clientDir: join(dir, "none") });
const db = database.db;

// Bare routes: the same bytes as the real ones, straight from memory (filled in below, before listening).
const bodies = { courses: "", course: "", progress: "", submit: "" };
app.get("/__bare/courses", async (_req, reply) => reply.type("application/json; charset=utf-8").send(bodies.courses));
app.get("/__bare/course", async (_req, reply) => reply.type("application/json; charset=utf-8").send(bodies.course));
app.get("/__bare/progress", async (_req, reply) => reply.type("application/json; charset=utf-8").send(bodies.progress));
app.post("/__bare/submit", async (_req, reply) => reply.type("application/json; charset=utf-8").send(bodies.submit));

const headers = { origin: appUrl, "content-type": "application/json" };
const signUp = await app.inject({
  method: "POST",
  url: "/api/auth/sign-up/email",
  headers,
  payload: {
    email: "bench@example.com",
    password: "bench-river-42",
    name: "Bench Learner",
    firstName: "Bench",
    lastName: "Learner",
  },
});
const cookie = ([] as string[])
  .concat(signUp.headers["set-cookie"] ?? [])
  .map((c) => c.split(";")[0])
  .join("; ");
const userId = (signUp.json() as { user: { id: string } }).user.id;
const course = (
  await db.selectFrom("course").select("id").where("comingSoon", "=", 0).orderBy("position").executeTakeFirstOrThrow()
).id;
const module = await db
  .selectFrom("courseModule")
  .select("id")
  .where("courseId", "=", course)
  .orderBy("position")
  .executeTakeFirstOrThrow();
const quiz = JSON.parse(
  (
    await db
      .selectFrom("quiz")
      .select("questions")
      .where("courseId", "=", course)
      .where("moduleId", "=", module.id)
      .executeTakeFirstOrThrow()
  ).questions,
) as { id: string; correctAnswer: string }[];
const answers = Object.fromEntries(quiz.map((q) => [q.id, q.correctAnswer]));
await db
  .insertInto("enrollment")
  .values({ id: randomUUID(), userId, courseId: course, source: "fixture", createdAt: new Date().toISOString() })
  .execute();

const lessons = await db.selectFrom("lesson").select("id").where("courseId", "=", course).execute();
/** Learners with enrolments, completed lessons, quiz attempts and progress rows, written straight into the database. */
async function seedLearners(count: number, offset: number) {
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const id = `seed-${offset + i}`;
        await trx
          .insertInto("user")
          .values({
            id,
            name: `Seed ${i}`,
            email: `seed${offset + i}@example.com`,
            emailVerified: 0,
            image: null,
            firstName: "Seed",
            lastName: String(i),
            role: "learner",
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        await trx
          .insertInto("enrollment")
          .values({ id: randomUUID(), userId: id, courseId: course, source: "fixture", createdAt: now })
          .execute();
        await trx
          .insertInto("courseProgress")
          .values({
            id: randomUUID(),
            userId: id,
            courseId: course,
            isCompleted: 0,
            completedAt: null,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        for (const l of lessons.slice(0, 3))
          await trx
            .insertInto("lessonCompletion")
            .values({ userId: id, courseId: course, lessonId: l.id, completedAt: now })
            .execute();
        await trx
          .insertInto("quizAttempt")
          .values({
            id: randomUUID(),
            userId: id,
            courseId: course,
            moduleId: module.id,
            score: 83,
            correctCount: 5,
            total: 6,
            passed: 1,
            answers: "{}",
            createdAt: now,
          })
          .execute();
      }
    });
  }
}

async function queriesPerRequest(): Promise<{ progress: number; submit: number; detail: number }> {
  // Averaged over 20 requests, so an occasional background statement does not blur the figure.
  const measure = async (run: () => Promise<unknown>) => {
    const before = database.queryCount();
    for (let i = 0; i < 20; i++) await run();
    return Math.round((database.queryCount() - before) / 20);
  };
  return {
    progress: await measure(() => app.inject({ method: "GET", url: `/api/progress/${course}`, headers: { cookie } })),
    submit: await measure(() =>
      app.inject({
        method: "POST",
        url: `/api/quiz/${course}/${module.id}`,
        headers: { ...headers, cookie },
        payload: { answers },
      }),
    ),
    detail: await measure(() => app.inject({ method: "GET", url: `/api/courses/${course}`, headers: { cookie } })),
  };
}

await seedLearners(10, 0);
const queriesWith10 = await queriesPerRequest();
await seedLearners(10_000, 10);
const queriesWith10k = await queriesPerRequest();

// Bare routes: the same bytes, straight from memory.
const capture = async (method: "GET" | "POST", url: string, payload?: unknown) => {
  const res = await app.inject({
    method,
    url,
    headers: { ...headers, cookie },
    ...(payload ? { payload: payload as object } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body;
};
bodies.courses = await capture("GET", "/api/courses");
bodies.course = await app.inject({ method: "GET", url: `/api/courses/${course}` }).then((r) => r.body);
bodies.progress = await capture("GET", `/api/progress/${course}`);
bodies.submit = await capture("POST", `/api/quiz/${course}/${module.id}`, { answers });

await app.listen({ port, host: "127.0.0.1" });
console.log(
  JSON.stringify({
    ready: true,
    url: appUrl,
    cookie,
    course,
    module: module.id,
    answers,
    queriesWith10,
    queriesWith10k,
  }),
);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
