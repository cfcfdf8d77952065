import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import type { CommonQuestions, QuestionDetail } from "#shared/schemas/questions.ts";
import { createTestApp, enrol, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";
import { requireRedisOrSkip, TEST_REDIS_URL, uniqueRedisPrefix } from "../setup/test-redis.ts";

// A post an admin hides on one instance is gone on another within a second (decision 0056): the
// other instance keeps the lesson's common questions in memory and drops them on the cache news.
const redisHere = await requireRedisOrSkip("questions-instances.test.ts");
const COURSE = "fixture-basics";
const LESSON = "alpha-two";
const COMMON = `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`;

interface Pair {
  t: TestApp;
  a: FastifyInstance;
  b: FastifyInstance;
  close: () => Promise<void>;
}

async function twoInstances(env: Record<string, string>): Promise<Pair> {
  const t = await createTestApp({ env: { ADMIN_EMAILS: "", ...env } });
  const database: Database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
  const b = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await b.ready();
  return {
    t,
    a: t.app,
    b,
    close: async () => {
      await b.close();
      await database.close();
      await t.close();
    },
  };
}

const call = (app: FastifyInstance, method: "GET" | "POST" | "PUT", url: string, user?: TestUser, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: { origin: TEST_ORIGIN, ...(user ? { cookie: user.cookie } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const settings = [
  { name: "through the database", redis: false },
  { name: "through Redis", redis: true },
];

for (const setting of settings) {
  describe.skipIf(setting.redis && !redisHere)(`hiding a post reaches every instance (${setting.name})`, () => {
    let pair: Pair;
    let admin: TestUser;
    let learner: TestUser;
    beforeAll(async () => {
      pair = await twoInstances(
        setting.redis ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: uniqueRedisPrefix() } : {},
      );
      learner = await signUpUser(pair.a, { firstName: "Ana", lastName: "Asker" });
      await enrol(pair.t, learner, COURSE);
      admin = await signUpUser(pair.a, { firstName: "Ada", lastName: "Admin" });
      // The role straight in the database: this file is about the instances, not the bootstrap.
      await pair.t.testDb.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
    });
    afterAll(async () => pair?.close());

    it("a common question hidden on A is gone from B's lesson within a second", async () => {
      const asked = await call(pair.a, "POST", `/api/courses/${COURSE}/lessons/${LESSON}/questions`, learner, {
        title: "Does sleep change appetite?",
        body: "Asking for a client.",
      });
      const question = asked.json() as QuestionDetail;
      const answered = await call(pair.a, "POST", `/api/questions/${question.id}/answers`, admin, {
        body: "Often, yes.",
      });
      const answerId = (answered.json() as QuestionDetail).answers[0]?.id;
      await call(pair.a, "POST", `/api/answers/${answerId}/accept`, learner);
      expect((await call(pair.a, "POST", `/api/questions/${question.id}/promote`, admin)).statusCode).toBe(200);
      const common = async (app: FastifyInstance) =>
        ((await call(app, "GET", COMMON, learner)).json() as CommonQuestions).items.map((i) => i.questionId);
      // B shows it (and now keeps it in memory).
      await expect.poll(() => common(pair.b), { timeout: 5000 }).toContain(question.id);
      expect(await common(pair.b)).toContain(question.id);

      expect((await call(pair.a, "POST", `/api/admin/posts/${question.id}/hide`, admin)).statusCode).toBe(200);
      const hiddenAt = Date.now();
      expect(await common(pair.a)).not.toContain(question.id);
      // On SQLite without Redis the news is a version row each instance reads once a second: a
      // second from the next read, so the wait allows that read's own time on top.
      const limit = setting.redis || testEngine === "postgres" ? 1000 : 1250;
      await expect.poll(() => common(pair.b), { timeout: limit, interval: 20 }).not.toContain(question.id);
      expect(Date.now() - hiddenAt).toBeLessThanOrEqual(limit);
      // The question page is gone on B too (it is read from the database).
      expect((await call(pair.b, "GET", `/api/questions/${question.id}`, learner)).statusCode).toBe(404);

      await call(pair.b, "POST", `/api/admin/posts/${question.id}/restore`, admin);
      await expect.poll(() => common(pair.a), { timeout: limit, interval: 20 }).toContain(question.id);
    });
  });
}
