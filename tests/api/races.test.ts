import type { FastifyInstance } from "fastify";
import { type KyselyPlugin, type QueryId, RawNode, SelectQueryNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { SIGN_IN_FAILURE_LIMIT } from "#server/limits/sign-in-lockout.ts";
import type { Quiz } from "#shared/schemas/learning.ts";
import { answerKey, answersFor } from "../setup/assessments.ts";
import { createTestApp, enrol, request, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

// Two app instances on one database: the test app, and a second app with its own connection(s).
let t: TestApp;
let second: { app: FastifyInstance; database: Database };

/**
 * Holds the second instance right after its next read of quiz attempts, until released: the moment
 * another instance can act between its check and its insert. Nothing else is slowed.
 */
const gate = (() => {
  const reads = new Set<QueryId>();
  let armed: { arrive: () => void; wait: Promise<void> } | null = null;
  const plugin: KyselyPlugin = {
    // A read compiled once (db/prepared.ts) keeps its query id: every read of the attempts is known,
    // the session statement that reads them beside the records on PostgreSQL too (decision 0047).
    transformQuery({ node, queryId }) {
      if (SelectQueryNode.is(node) && JSON.stringify(node.from).includes('"assessmentAttempt"')) reads.add(queryId);
      if (RawNode.is(node) && JSON.stringify(node).includes('\\"assessmentAttempt\\"')) reads.add(queryId);
      return node;
    },
    async transformResult({ result, queryId }) {
      if (armed && reads.has(queryId)) {
        const { arrive, wait } = armed;
        armed = null;
        arrive();
        await wait;
      }
      return result;
    },
  };
  return {
    plugin,
    hold() {
      let arrive = () => {};
      let release = () => {};
      const reached = new Promise<void>((r) => {
        arrive = r;
      });
      const wait = new Promise<void>((r) => {
        release = r;
      });
      armed = { arrive, wait };
      return { reached, release };
    },
  };
})();

beforeAll(async () => {
  t = await createTestApp();
  const opened = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
  const database = { ...opened, db: opened.db.withPlugin(gate.plugin) };
  const app = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await app.ready();
  second = { app, database };
});
afterAll(async () => {
  await second?.app.close();
  await second?.database.close();
  await t?.close();
});

describe("limits hold under parallel requests", () => {
  it("30 wrong passwords at once to one account: at most 10 are checked, the rest are refused as locked", async () => {
    const user = await signUpUser(t.app);
    const attempts = Array.from({ length: 30 }, (_, i) =>
      (i % 2 ? second.app : t.app).inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: `198.51.100.${i + 1}`,
        payload: { email: user.email, password: `wrong-guess-${i}` },
      }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - SIGN_IN_FAILURE_LIMIT);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it("a request refused for another reason (no password) gives its slot back", async () => {
    const user = await signUpUser(t.app);
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: TEST_ORIGIN },
      remoteAddress: "198.51.100.200",
      payload: { email: user.email, password: user.password },
    });
    expect(ok.statusCode).toBe(200);
    // Refused input (no password) is not a guess and uses no slot.
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: `198.51.101.${i + 1}`,
        payload: { email: user.email },
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it("parallel quiz start/submit loops on two instances never exceed 3 attempts", async () => {
    const key = answerKey("fixture-basics", "alpha");
    const url = "/api/quiz/fixture-basics/alpha";
    for (let trial = 0; trial < 2; trial++) {
      const learner = await signUpUser(t.app);
      await enrol(t, learner, "fixture-basics");
      const loop = async (app: FastifyInstance) => {
        for (let i = 0; i < 6; i++) {
          const started = await request(app, "POST", `${url}/attempt`, { cookie: learner.cookie });
          if (started.statusCode !== 200) continue;
          const quiz = started.json() as Quiz;
          await request(app, "POST", url, {
            cookie: learner.cookie,
            payload: { attemptId: quiz.attemptId, answers: answersFor(quiz, key, 0) },
          });
        }
      };
      await Promise.all([loop(t.app), loop(second.app), loop(t.app), loop(second.app)]);
      expect(await attemptsOf(learner.id), `trial ${trial}`).toBeLessThanOrEqual(3);
    }
  });

  it("a start that read the attempts before another instance opened and submitted the 3rd adds no 4th", async () => {
    const key = answerKey("fixture-basics", "alpha");
    const url = "/api/quiz/fixture-basics/alpha";
    const learner = await signUpUser(t.app);
    await enrol(t, learner, "fixture-basics");
    const take = async (app: FastifyInstance) => {
      const quiz = (await request(app, "POST", `${url}/attempt`, { cookie: learner.cookie })).json() as Quiz;
      const res = await request(app, "POST", url, {
        cookie: learner.cookie,
        payload: { attemptId: quiz.attemptId, answers: answersFor(quiz, key, 0) },
      });
      expect(res.statusCode).toBe(200);
    };
    await take(t.app);
    await take(t.app);
    // The second instance reads the two attempts, then waits (held after its read) while the first
    // instance starts and submits the third.
    const held = gate.hold();
    const late = request(second.app, "POST", `${url}/attempt`, { cookie: learner.cookie });
    await held.reached;
    await take(t.app);
    held.release();
    const res = await late;
    expect(res.statusCode).toBe(429);
    expect(await attemptsOf(learner.id)).toBe(3);
  });

  it("a submission that read the open attempt before another instance graded it stores nothing: 409", async () => {
    const key = answerKey("fixture-basics", "alpha");
    const url = "/api/quiz/fixture-basics/alpha";
    const learner = await signUpUser(t.app);
    await enrol(t, learner, "fixture-basics");
    // A completed lesson first: the course's progress row exists, as for most submissions.
    const lesson = "/api/progress/fixture-basics/lessons/alpha-one/complete";
    expect((await request(t.app, "POST", lesson, { cookie: learner.cookie })).statusCode).toBe(200);
    const quiz = (await request(t.app, "POST", `${url}/attempt`, { cookie: learner.cookie })).json() as Quiz;
    const payload = { attemptId: quiz.attemptId, answers: answersFor(quiz, key, 5) };
    // The second instance reads the open attempt, then waits while the first grades it.
    const held = gate.hold();
    const late = request(second.app, "POST", url, { cookie: learner.cookie, payload });
    await held.reached;
    expect((await request(t.app, "POST", url, { cookie: learner.cookie, payload })).statusCode).toBe(200);
    held.release();
    expect((await late).statusCode).toBe(409);
    const graded = await t.testDb.database.db
      .selectFrom("quizAttempt")
      .select("id")
      .where("userId", "=", learner.id)
      .execute();
    expect(graded.length).toBe(1);
  });
});

async function attemptsOf(userId: string): Promise<number> {
  const rows = await t.testDb.database.db
    .selectFrom("assessmentAttempt")
    .select("id")
    .where("userId", "=", userId)
    .execute();
  return rows.length;
}
