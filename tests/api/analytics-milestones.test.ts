import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUpAnalytics } from "#server/modules/admin/analytics-rollup.ts";
import type { CourseFunnel } from "#shared/schemas/analytics.ts";
import { D, DAY, day, gradedAttempt, today } from "../setup/analytics.ts";
import {
  buyInSandbox,
  createTestApp,
  request,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

/**
 * The course funnel from the stored milestones (docs/decisions/0045) answers exactly as the raw rows do:
 * right after a turn of the job, and before the next one after activity, a refund, a revoked certificate,
 * a late-recorded attempt and an erased account. D(n, h) is h o'clock UTC n days ago.
 */
const B = "fixture-basics";
const P = "fixture-practical";
const periods = [`from=${day(29)}&to=${day(0)}`, `from=${day(99)}&to=${day(0)}`, `from=${day(60)}&to=${day(20)}`];

let t: TestApp;
let admin: TestUser;
const inB: TestUser[] = [];
const inP: TestUser[] = [];
let lessons: { id: string; courseId: string; moduleId: string }[] = [];
const db = () => t.testDb.database.db;
let first: { rows: number; stored: Record<string, CourseFunnel>; raw: Record<string, CourseFunnel> };

async function funnels() {
  const answers: Record<string, CourseFunnel> = {};
  for (const courseId of [B, P])
    for (const p of periods) {
      const res = await request(t.app, "GET", `/api/admin/analytics/funnel?courseId=${courseId}&${p}`, {
        cookie: admin.cookie,
      });
      expect(res.statusCode).toBe(200);
      answers[`${courseId} ${p}`] = res.json();
    }
  return answers;
}

/**
 * The same answers from the raw rows: the stored rows are not read for a course whose shape they do not
 * match. They are also taken away meanwhile, so answers that still read them would show nobody's progress.
 */
async function fromRawRows() {
  const marks = await db().selectFrom("learnerMilestoneCourse").selectAll().execute();
  const rows = await db().selectFrom("learnerMilestone").selectAll().execute();
  expect(marks.map((m) => m.courseId).sort()).toEqual(expect.arrayContaining([B, P]));
  await db().updateTable("learnerMilestoneCourse").set({ shape: "another shape" }).execute();
  await db().deleteFrom("learnerMilestone").execute();
  try {
    return await funnels();
  } finally {
    for (const mark of marks)
      await db()
        .updateTable("learnerMilestoneCourse")
        .set({ shape: mark.shape })
        .where("courseId", "=", mark.courseId)
        .execute();
    if (rows.length > 0) await db().insertInto("learnerMilestone").values(rows).execute();
  }
}

/**
 * A turn two hours from now: every write of the test is then older than the turn less its margin, so the
 * answers come from the stored rows alone and show what the turn folded in.
 */
async function laterTurn() {
  await rollUpAnalytics(db(), new Date(Date.now() + 2 * 3_600_000));
  const until = await db()
    .selectFrom("learnerMilestoneCourse")
    .select("foldedUntil")
    .where("courseId", "=", B)
    .executeTakeFirstOrThrow();
  expect(Date.parse(until.foldedUntil)).toBeGreaterThan(Date.now() + 3_600_000);
}

/** The answers moved on from `before`, are the raw rows' before the next turn, and stay so after it. */
async function expectExactNowAndAfterATurn(before: Record<string, CourseFunnel>) {
  const now = await funnels();
  expect(now).not.toEqual(before);
  expect(now).toEqual(await fromRawRows());
  await laterTurn();
  expect(await funnels()).toEqual(now);
}

const lessonsOf = (courseId: string, moduleId: string) =>
  lessons.filter((l) => l.courseId === courseId && l.moduleId === moduleId);
/** Completes the module's lessons from the `from`th on. */
const complete = (user: TestUser, courseId: string, moduleId: string, at: string, from = 0) =>
  db()
    .insertInto("lessonCompletion")
    .values(
      lessonsOf(courseId, moduleId)
        .slice(from)
        .map((l) => ({ userId: user.id, courseId, lessonId: l.id, completedAt: at })),
    )
    .execute();
const attempt = (user: TestUser, courseId: string, moduleId: string, passed: boolean, createdAt: string) =>
  gradedAttempt(db(), { userId: user.id, courseId, moduleId, score: passed ? 90 : 40, passed, createdAt });
const certify = (user: TestUser, courseId: string, at: string) =>
  db()
    .insertInto("certificate")
    .values({
      id: randomUUID(),
      certificateId: `CERT-${randomUUID().slice(0, 8)}`,
      userId: user.id,
      courseId,
      firstName: "A",
      lastName: "Learner",
      completedAt: at,
      expiresAt: new Date(today + 700 * DAY).toISOString(),
      issuedAt: at,
      revokedAt: null,
      revokedReason: null,
    })
    .execute();

beforeAll(async () => {
  t = await createTestApp({ practical: true, env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  lessons = await db().selectFrom("lesson").select(["id", "courseId", "moduleId"]).orderBy("position").execute();
  // Learner k of course B bought it 6k + 3 days ago and went as far as step k % 6: nothing; a lesson of
  // alpha; alpha passed; beta failed; beta passed and gamma (no quiz) read; the exam passed and certified.
  // A step every other day, so from learner 3 on everyone is idle for more than 14 days.
  for (let k = 0; k < 14; k++) {
    const learner = await signUpUser(t.app);
    inB.push(learner);
    const enrolled = 6 * k + 3;
    await buyInSandbox(t, learner, B);
    for (const table of ["order", "enrollment"] as const)
      await db()
        .updateTable(table)
        .set({ createdAt: D(enrolled, 9) })
        .where("userId", "=", learner.id)
        .execute();
    await db()
      .updateTable("order")
      .set({ paidAt: D(enrolled, 9) })
      .where("userId", "=", learner.id)
      .execute();
    const step = k % 6;
    const at = (s: number) => D(Math.max(enrolled - 2 * s, 0), 8 + s);
    if (step >= 1)
      await db()
        .insertInto("lessonCompletion")
        .values({ userId: learner.id, courseId: B, lessonId: lessonsOf(B, "alpha")[0]!.id, completedAt: at(1) })
        .execute();
    if (step >= 2) {
      await complete(learner, B, "alpha", at(2), 1);
      await attempt(learner, B, "alpha", false, at(2));
      await attempt(learner, B, "alpha", true, at(2));
    }
    if (step >= 3) {
      await complete(learner, B, "beta", at(3));
      await attempt(learner, B, "beta", false, at(3));
    }
    if (step >= 4) {
      await attempt(learner, B, "beta", true, at(4));
      await complete(learner, B, "gamma", at(4));
    }
    if (step >= 5) {
      await attempt(learner, B, "#final-exam", true, at(5));
      await certify(learner, B, D(Math.max(enrolled - 2 * 5 - (k % 4), 0), 20));
    }
  }
  // Course P requires its practical: learner j was enrolled 9j + 1 days ago and read delta the same day;
  // all but learner 0 passed its quiz, learners 1 and 2 the practical, and learner 2 is certified.
  for (let j = 0; j < 4; j++) {
    const learner = await signUpUser(t.app);
    inP.push(learner);
    await db()
      .insertInto("enrollment")
      .values({ id: randomUUID(), userId: learner.id, courseId: P, source: "admin", createdAt: D(9 * j + 1, 9) })
      .execute();
    await complete(learner, P, "delta", D(9 * j + 1, 10));
    await attempt(learner, P, "delta", j > 0, D(9 * j + 1, 11));
    if (j === 1 || j === 2)
      await db()
        .insertInto("practicalSubmission")
        .values({
          userId: learner.id,
          courseId: P,
          attempt: 1,
          body: "done",
          status: "passed",
          submittedAt: D(9 * j + 1, 12),
          consentedAt: D(9 * j + 1, 12),
          claimedBy: null,
          claimedAt: null,
          reviewedBy: null,
          reviewedAt: null,
          scores: null,
          feedback: null,
          points: null,
          maxPoints: null,
        })
        .execute();
    if (j === 2) await certify(learner, P, D(9 * j - 3, 12));
  }
  // The tests run in any order and change the rows: the first turn's answers are kept for the first.
  await rollUpAnalytics(db());
  const rows = await db()
    .selectFrom("learnerMilestone")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  first = { rows: Number(rows.n), stored: await funnels(), raw: await fromRawRows() };
});
afterAll(async () => t?.close());

describe("the funnel's milestones", () => {
  it("answer as the raw rows do after a turn, and the answers are worth comparing", async () => {
    expect(first.rows).toBeGreaterThan(10);
    const { stored } = first;
    expect(stored).toEqual(first.raw);
    const long = stored[`${B} ${periods[1]}`]!;
    // Enrolled, first lesson, alpha, beta, gamma, exam, certified; stalled at alpha: learners 6, 7, 12 and 13
    // (0 and 1 are not idle), at beta: 3, 8 and 9 (2 is not idle).
    expect(long.steps.map((s) => s.count)).toEqual([14, 11, 8, 4, 4, 2, 2]);
    expect(long.stalls.map((s) => [s.reached, s.stalled])).toEqual([
      [14, 4],
      [8, 3],
      [4, 0],
    ]);
    // Learner 5: 11 days 11 hours; learner 11: 13 days 11 hours.
    expect(long.medianDaysToCertificate).toBe(12.5);
    expect(stored[`${P} ${periods[1]}`]!.steps.find((s) => s.key === "practical")?.count).toBe(2);
  });

  it("answer exactly before the next turn: activity since it, a write stamped just before it, a late-recorded attempt", async () => {
    await rollUpAnalytics(db());
    const before = await funnels();
    // Learner 6 (nothing yet, stalled at alpha) reads alpha and passes its quiz now; learner 12 reads a lesson.
    await complete(inB[6]!, B, "alpha", new Date().toISOString());
    await attempt(inB[6]!, B, "alpha", true, new Date().toISOString());
    await db()
      .insertInto("lessonCompletion")
      .values({
        userId: inB[12]!.id,
        courseId: B,
        lessonId: lessonsOf(B, "alpha")[0]!.id,
        completedAt: new Date().toISOString(),
      })
      .execute();
    // A write stamped half an hour before the turn's time that committed after it: learner 9 (beta failed) passes beta.
    const folded = await db()
      .selectFrom("learnerMilestoneCourse")
      .select("foldedUntil")
      .where("courseId", "=", B)
      .executeTakeFirstOrThrow();
    await attempt(inB[9]!, B, "beta", true, new Date(Date.parse(folded.foldedUntil) - 1_800_000).toISOString());
    // An overdue timed attempt recorded now with its deadline ten days ago (a fail): learner 8 is no longer idle.
    await attempt(inB[8]!, B, "alpha", false, D(10));
    await expectExactNowAndAfterATurn(before);
  });

  it("answer exactly at once after a refund, a revoked certificate and an erased account", async () => {
    await rollUpAnalytics(db());
    const before = await funnels();
    // Learner 0 (bought B 3 days ago) is refunded: the enrolment ends, the learner leaves the cohort.
    const order = await db()
      .selectFrom("order")
      .select("id")
      .where("userId", "=", inB[0]!.id)
      .executeTakeFirstOrThrow();
    expect(
      (await request(t.app, "POST", `/api/admin/orders/${order.id}/refund`, { cookie: admin.cookie })).statusCode,
    ).toBe(200);
    // Learner 5's certificate is revoked; learner 11 (certified) erases the account.
    await db()
      .updateTable("certificate")
      .set({ revokedAt: D(0, 0), revokedReason: "admin" })
      .where("userId", "=", inB[5]!.id)
      .execute();
    const erased = inB[11]!;
    expect(
      (
        await request(t.app, "POST", "/api/account/delete", {
          cookie: erased.cookie,
          payload: { password: erased.password },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      await db().selectFrom("learnerMilestone").select("userId").where("userId", "=", erased.id).execute(),
    ).toEqual([]);
    await expectExactNowAndAfterATurn(before);
  });

  it("are computed again for a course whose modules changed, and dropped for a course that is gone", async () => {
    await db()
      .updateTable("learnerMilestoneCourse")
      .set({ shape: "an older shape" })
      .where("courseId", "=", B)
      .execute();
    await db()
      .insertInto("learnerMilestoneCourse")
      .values({ courseId: "gone", shape: "x", foldedUntil: new Date().toISOString() })
      .execute();
    const raw = await funnels();
    await rollUpAnalytics(db());
    expect(await funnels()).toEqual(raw);
    const marks = await db().selectFrom("learnerMilestoneCourse").select("courseId").execute();
    expect(marks.map((m) => m.courseId)).not.toContain("gone");
  });
});
