import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuestionFigures } from "#shared/schemas/analytics.ts";
import { D, day } from "../setup/analytics.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

/**
 * The owner's question figures per course (issue 41): questions asked, median time to the first staff
 * answer, and the share unanswered after 48 hours, with the 48 hours tested from both sides.
 */
const B = "fixture-basics";
const O = "fixture-other";
const HOUR = 3_600_000;
let t: TestApp;
let admin: TestUser;
let learner: TestUser;
const db = () => t.testDb.database.db;
const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

async function question(courseId: string, createdAt: string, state: "visible" | "hidden" = "visible") {
  const id = randomUUID();
  await db()
    .insertInto("post")
    .values({
      id,
      kind: "question",
      courseId,
      lessonId: "alpha-two",
      questionId: null,
      authorId: learner.id,
      badge: null,
      title: "How much protein after a workout?",
      body: "Is 20 g enough?",
      html: "<p>Is 20 g enough?</p>",
      state,
      acceptedAnswerId: null,
      createdAt,
      editedAt: null,
      notifiedAt: null,
    })
    .execute();
  return { id, courseId, createdAt };
}
async function answer(
  q: { id: string; courseId: string; createdAt: string },
  afterMs: number,
  badge: "instructor" | null = "instructor",
) {
  const id = randomUUID();
  await db()
    .insertInto("post")
    .values({
      id,
      kind: "answer",
      courseId: q.courseId,
      lessonId: "alpha-two",
      questionId: q.id,
      authorId: badge ? admin.id : learner.id,
      badge,
      title: null,
      body: "Usually 20 to 40 g.",
      html: "<p>Usually 20 to 40 g.</p>",
      state: "visible",
      acceptedAnswerId: null,
      createdAt: at(q.createdAt, afterMs),
      editedAt: null,
      notifiedAt: null,
    })
    .execute();
  return id;
}
const figures = async (user = admin) => {
  const res = await request(t.app, "GET", `/api/admin/analytics/questions?from=${day(30)}&to=${day(0)}`, {
    cookie: user.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QuestionFigures;
};
const of = async (courseId: string) => (await figures()).items.find((i) => i.courseId === courseId);

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  learner = await signUpUser(t.app);
});
afterAll(async () => t?.close());

describe("question figures per course", () => {
  it("are the admins' only", async () => {
    const url = `/api/admin/analytics/questions?from=${day(30)}&to=${day(0)}`;
    expect((await request(t.app, "GET", url)).statusCode).toBe(401);
    expect((await request(t.app, "GET", url, { cookie: learner.cookie })).statusCode).toBe(403);
    expect((await request(t.app, "GET", `/api/admin/analytics/questions?from=${day(0)}`, admin)).statusCode).toBe(400);
  });

  it("count the period's questions, the median wait for staff, and the share left unanswered past 48 hours", async () => {
    const quick = await question(B, D(10));
    await answer(quick, HOUR);
    const onTime = await question(B, D(9));
    await answer(onTime, 48 * HOUR);
    const late = await question(B, D(8));
    await answer(late, 48 * HOUR + 1000);
    // A classmate's answer is not a staff answer.
    const byLearner = await question(B, D(7));
    await answer(byLearner, HOUR, null);
    // Asked an hour ago: not yet 48 hours old, so neither on time nor late.
    await question(B, new Date(Date.now() - HOUR).toISOString());
    await question(B, D(6), "hidden");
    await question(B, D(40));
    expect(await of(B)).toEqual({
      courseId: B,
      title: expect.any(String),
      asked: 5,
      answeredByStaff: 3,
      medianSecondsToFirstStaffAnswer: 48 * 3600,
      atLeast48HoursOld: 4,
      unansweredAfter48Hours: 2,
      shareUnansweredAfter48Hours: 0.5,
    });
  });

  it("count an answer at exactly 48 hours as on time and one a second later as late", async () => {
    expect(await of(O)).toBeUndefined();
    const q = await question(O, D(5));
    const answerId = await answer(q, 48 * HOUR);
    expect(await of(O)).toMatchObject({ asked: 1, atLeast48HoursOld: 1, shareUnansweredAfter48Hours: 0 });
    await db()
      .updateTable("post")
      .set({ createdAt: at(q.createdAt, 48 * HOUR + 1000) })
      .where("id", "=", answerId)
      .execute();
    expect(await of(O)).toMatchObject({ unansweredAfter48Hours: 1, shareUnansweredAfter48Hours: 1 });
  });
});
