import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUpAnalytics } from "#server/modules/admin/analytics-rollup.ts";
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
 * The dashboard's daily rollup (docs/decisions/0038) gives the same figures as the raw rows, for any
 * period, and still does after a refund or an erased account changes a day already rolled up.
 * D(n, h) is h o'clock UTC n days ago.
 */
const B = "fixture-basics";
const O = "fixture-other";

let t: TestApp;
let admin: TestUser;
const learners: TestUser[] = [];
const db = () => t.testDb.database.db;
const as = (user: TestUser, method: "GET" | "POST", url: string, payload?: unknown) =>
  request(t.app, method, url, { cookie: user.cookie, ...(payload ? { payload } : {}) });

/** Periods of every shape: daily, weekly with a short last week, ending before today, a single day. */
const periods = [
  `from=${day(29)}&to=${day(0)}`,
  `from=${day(100)}&to=${day(0)}`,
  `from=${day(97)}&to=${day(3)}`,
  `from=${day(40)}&to=${day(11)}`,
  `from=${day(6)}&to=${day(6)}`,
  `from=${day(0)}&to=${day(0)}`,
];
const tables = ["sales-over-time", "sales-by-course", "learners-over-time", "assessments"];

/** Every figure the dashboard answers for those periods. */
async function everything() {
  const answers: Record<string, unknown> = {};
  for (const p of periods) {
    for (const path of ["overview?", "assessments?", `funnel?courseId=${B}&`]) {
      const url = `/api/admin/analytics/${path}${p}`;
      const res = await as(admin, "GET", url);
      expect(res.statusCode).toBe(200);
      answers[url] = res.json();
    }
    for (const table of tables)
      answers[table + p] = (await as(admin, "GET", `/api/admin/analytics/export.csv?table=${table}&${p}`)).body;
  }
  return answers;
}

async function fromRawRows() {
  await db().deleteFrom("analyticsRollup").execute();
  await db().deleteFrom("analyticsDay").execute();
  await db().deleteFrom("activeLearnerDay").execute();
  await db().deleteFrom("activeLearnerGap").execute();
  await db().deleteFrom("learnerMilestoneCourse").execute();
  await db().deleteFrom("learnerMilestone").execute();
  return everything();
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  for (let i = 0; i < 12; i++) learners.push(await signUpUser(t.app));
  const lessons = await db().selectFrom("lesson").select(["id", "courseId"]).orderBy("position").execute();
  // Learner i bought course B or O (i days and some hours ago, over midnight for some), read lessons on
  // the following days, and (but every fourth) took the quiz (failing every third try), some more than once.
  for (const [i, learner] of learners.entries()) {
    const courseId = i % 3 === 2 ? O : B;
    const enrolled = 5 * i + 1;
    await buyInSandbox(t, learner, courseId);
    await db()
      .updateTable("order")
      .set({ paidAt: D(enrolled, 23), createdAt: D(enrolled, 23), couponId: null })
      .where("userId", "=", learner.id)
      .execute();
    await db()
      .updateTable("enrollment")
      .set({ createdAt: D(enrolled, 23) })
      .where("userId", "=", learner.id)
      .execute();
    await db()
      .updateTable("user")
      .set({ createdAt: D(enrolled + 1, 1) })
      .where("id", "=", learner.id)
      .execute();
    const own = lessons.filter((l) => l.courseId === courseId).slice(0, i % 5);
    for (const [k, lesson] of own.entries())
      await db()
        .insertInto("lessonCompletion")
        .values({ userId: learner.id, courseId, lessonId: lesson.id, completedAt: D(enrolled - 1 - (k % 2), k) })
        .execute();
    for (let a = 0; a <= i % 3 && i % 4 !== 3; a++)
      await gradedAttempt(db(), {
        userId: learner.id,
        courseId,
        moduleId: courseId === B ? "alpha" : "delta",
        score: 50 + ((i * 7 + a * 13) % 50),
        passed: (i + a) % 3 !== 0,
        createdAt: D(Math.max(enrolled - 2 - 3 * a, 0), 6 + a),
      });
  }
  // Learner 0's sale is today's (live in every answer); learner 5, who took quizzes on rolled-up days,
  // reads a lesson today (counted once in a period that holds both).
  await db()
    .updateTable("order")
    .set({ paidAt: D(0, 0) })
    .where("userId", "=", learners[0]!.id)
    .execute();
  const late = lessons.find((l) => l.courseId === O)!;
  await db()
    .insertInto("lessonCompletion")
    .values({ userId: learners[5]!.id, courseId: O, lessonId: late.id, completedAt: new Date().toISOString() })
    .execute();
});
afterAll(async () => t?.close());

describe("the daily rollup", () => {
  it("answers exactly as the raw rows do, for every period and table", async () => {
    const live = await fromRawRows();
    await rollUpAnalytics(db());
    expect((await db().selectFrom("analyticsRollup").select("rolledUntil").executeTakeFirstOrThrow()).rolledUntil).toBe(
      today / DAY,
    );
    expect(await everything()).toEqual(live);
    // A second turn changes nothing.
    await rollUpAnalytics(db());
    expect(await everything()).toEqual(live);
  });

  it("shows a refund that ended a rolled-up day's enrolment, and an erased account, after the next turn", async () => {
    await fromRawRows();
    await rollUpAnalytics(db());
    // Learner 1 bought 6 days ago (inside the refund window): the refund ends that day's enrolment.
    const bought = await db()
      .selectFrom("order")
      .select("id")
      .where("userId", "=", learners[1]!.id)
      .executeTakeFirstOrThrow();
    expect((await as(admin, "POST", `/api/admin/orders/${bought.id}/refund`)).statusCode).toBe(200);
    // Learner 7 (lessons only, on rolled-up days) erases the account.
    const erase = async (erased: TestUser) =>
      expect((await as(erased, "POST", "/api/account/delete", { password: erased.password })).statusCode).toBe(200);
    await erase(learners[7]!);
    await rollUpAnalytics(db());
    const rolled = await everything();
    expect(rolled).toEqual(await fromRawRows());
    const month = rolled[`/api/admin/analytics/overview?from=${day(29)}&to=${day(0)}`] as {
      sales: { current: { refundCount: number } };
    };
    expect(month.sales.current.refundCount).toBe(1);
    // Learner 4 (attempts and lessons on rolled-up days) erases the account too.
    await rollUpAnalytics(db());
    await erase(learners[4]!);
    await rollUpAnalytics(db());
    const again = await everything();
    expect(again).toEqual(await fromRawRows());
  });
  it("drops an erased account's attempts from days before anyone else's activity, and rolls only recent days after", async () => {
    // The first learner of all: one quiz attempt 90 days ago, before every other learner's activity.
    const pioneer = await signUpUser(t.app);
    await db()
      .insertInto("quizAttempt")
      .values({
        id: randomUUID(),
        userId: pioneer.id,
        courseId: B,
        moduleId: "alpha",
        score: 90,
        correctCount: 0,
        total: 6,
        passed: true,
        answers: "{}",
        createdAt: D(90),
      })
      .execute();
    await fromRawRows();
    await rollUpAnalytics(db());
    expect((await as(pioneer, "POST", "/api/account/delete", { password: pioneer.password })).statusCode).toBe(200);
    await rollUpAnalytics(db());
    expect(await everything()).toEqual(await fromRawRows());
    // Rolled up again from the start once; the turns after re-roll only the last days.
    await rollUpAnalytics(db());
    await rollUpAnalytics(db());
    expect((await rollUpAnalytics(db())).days).toBeLessThan(5);
  });
});

describe("the rollup job", () => {
  it("runs on its own in the job runner and brings the rollup up to today", async () => {
    const scheduled = await createTestApp({ env: { ANALYTICS_ROLLUP_MINUTES: "1" } });
    try {
      await expect
        .poll(async () =>
          Number(
            (await scheduled.testDb.database.db.selectFrom("analyticsRollup").select("rolledUntil").executeTakeFirst())
              ?.rolledUntil ?? 0,
          ),
        )
        .toBe(today / DAY);
      const job = await scheduled.testDb.database.db
        .selectFrom("scheduledJob")
        .selectAll()
        .where("name", "=", "analytics-rollup")
        .executeTakeFirst();
      expect(job?.lastError ?? null).toBeNull();
    } finally {
      await scheduled.close();
    }
  });
});
