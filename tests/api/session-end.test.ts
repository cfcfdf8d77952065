import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { createTestApp, enrol, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";

// The signed-in reads fetch the session together with the learner's records (one statement on
// PostgreSQL): the session row is still read on every request, so a session that ends on one
// instance is over on the other at its next request.
let t: TestApp;
let b: FastifyInstance;
let database: Database;

beforeAll(async () => {
  t = await createTestApp();
  database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 3 });
  b = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await b.ready();
});
afterAll(async () => {
  await b?.close();
  await database?.close();
  await t?.close();
});

/** What instance B shows this cookie on the course page, progress, the first quiz and a lesson completion. */
async function seenOnB(cookie: string) {
  const page = await request(b, "GET", "/api/courses/fixture-basics", { cookie });
  const progress = await request(b, "GET", "/api/progress/fixture-basics", { cookie });
  const quiz = await request(b, "POST", "/api/quiz/fixture-basics/alpha/attempt", { cookie });
  const complete = await request(b, "POST", "/api/progress/fixture-basics/lessons/alpha-two/complete", {
    cookie,
    payload: {},
  });
  return {
    enrolledPage: page.json().enrolled as boolean,
    progress: progress.statusCode,
    recordedQuiz: quiz.json().attemptsLeft !== null,
    complete: complete.statusCode,
  };
}

const signedIn = { enrolledPage: true, progress: 200, recordedQuiz: true, complete: 200 };
const signedOut = { enrolledPage: false, progress: 401, recordedQuiz: false, complete: 401 };

async function enrolledLearner(): Promise<TestUser> {
  const user = await signUpUser(t.app);
  await enrol(t, user, "fixture-basics");
  expect(await seenOnB(user.cookie)).toEqual(signedIn);
  return user;
}

describe(`a session that ends on one instance, on the other (${testEngine})`, () => {
  it("signing out on A makes the next signed-in read on B a visitor's", async () => {
    const user = await enrolledLearner();
    expect((await request(t.app, "POST", "/api/auth/sign-out", { cookie: user.cookie, payload: {} })).statusCode).toBe(
      200,
    );
    expect(await seenOnB(user.cookie)).toEqual(signedOut);
  });

  it("revoking every session of the account on A ends it on B", async () => {
    const user = await enrolledLearner();
    const revoke = await request(t.app, "POST", "/api/auth/revoke-sessions", { cookie: user.cookie, payload: {} });
    expect(revoke.statusCode).toBe(200);
    expect(await seenOnB(user.cookie)).toEqual(signedOut);
  });

  it("a session past its expiry reads as a visitor, with a valid signature", async () => {
    const user = await enrolledLearner();
    await t.testDb.database.db
      .updateTable("session")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("userId", "=", user.id)
      .execute();
    expect(await seenOnB(user.cookie)).toEqual(signedOut);
  });

  it("a cookie with a forged signature reads as a visitor", async () => {
    const user = await enrolledLearner();
    const forged = user.cookie.replace(/\.[^.;]*(?=;|$)/, `.${"A".repeat(43)}=`);
    expect(forged).not.toBe(user.cookie);
    expect(await seenOnB(forged)).toEqual(signedOut);
  });
});
