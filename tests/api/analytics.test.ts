import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUpAnalytics } from "#server/modules/admin/analytics-rollup.ts";
import type { AnalyticsAssessments, AnalyticsOverview, CourseFunnel } from "#shared/schemas/analytics.ts";
import { D, DAY, day, gradedAttempt, today } from "../setup/analytics.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

/**
 * The owner's dashboard against figures worked out by hand. The current period is the last 30 days
 * (29 days ago to today), the previous one the 30 days before. D(n) is noon UTC n days ago.
 * Every figure is checked twice: from the raw rows alone, and with every day before today read from the
 * daily rollup (docs/decisions/0038).
 */
const FROM = day(29);
const TO = day(0);
const period = `from=${FROM}&to=${TO}`;
const B = "fixture-basics";
const O = "fixture-other";
/** Names no aggregate may contain. */
const SECRET_NAME = "Zephyrine";

let t: TestApp;
let admin: TestUser;
const L: TestUser[] = [];
let lessons: { id: string; moduleId: string }[] = [];

const db = () => t.testDb.database.db;

async function order(
  user: TestUser,
  courseId: string,
  amount: number,
  paidAt: string,
  extra: { couponId?: string; refundedAt?: string; kind?: string } = {},
) {
  const id = randomUUID();
  await db()
    .insertInto("order")
    .values({
      id,
      userId: user.id,
      courseId,
      amount,
      originalAmount: 2000,
      currency: "usd",
      couponId: extra.couponId ?? null,
      couponCode: extra.couponId ? extra.couponId.toUpperCase() : null,
      provider: extra.kind === "free" ? "free" : "sandbox",
      providerPaymentId: `pay-${id}`,
      providerSessionId: null,
      kind: extra.kind ?? "intent",
      status: extra.refundedAt ? "refunded" : "paid",
      ownershipKey: extra.refundedAt ? null : `${user.id}:${courseId}`,
      refundReason: extra.refundedAt ? "admin" : null,
      paidAt,
      refundId: extra.refundedAt ? `re-${id}` : null,
      refundedAt: extra.refundedAt ?? null,
      createdAt: paidAt,
      updatedAt: extra.refundedAt ?? paidAt,
    })
    .execute();
}
const enrolment = (user: TestUser, courseId: string, source: string, createdAt: string) =>
  db().insertInto("enrollment").values({ id: randomUUID(), userId: user.id, courseId, source, createdAt }).execute();
const lessonsDone = (user: TestUser, courseId: string, moduleId: string, completedAt: string) =>
  db()
    .insertInto("lessonCompletion")
    .values(
      lessons
        .filter((l) => l.moduleId === moduleId)
        .map((l) => ({ userId: user.id, courseId, lessonId: l.id, completedAt })),
    )
    .execute();
const oneLesson = (user: TestUser, courseId: string, lessonId: string, completedAt: string) =>
  db().insertInto("lessonCompletion").values({ userId: user.id, courseId, lessonId, completedAt }).execute();
const attempt = (user: TestUser, courseId: string, moduleId: string, score: number, createdAt: string) =>
  gradedAttempt(db(), { userId: user.id, courseId, moduleId, score, passed: score >= 80, createdAt });
async function certificate(
  user: TestUser,
  courseId: string,
  issuedAt: string,
  expiresAt: string,
  revokedAt: string | null = null,
) {
  const certificateId = `CERT-${randomUUID().slice(0, 8)}`;
  await db()
    .insertInto("certificate")
    .values({
      id: randomUUID(),
      certificateId,
      userId: user.id,
      courseId,
      firstName: SECRET_NAME,
      lastName: "Quill",
      completedAt: issuedAt,
      expiresAt,
      issuedAt,
      revokedAt,
      revokedReason: revokedAt ? "admin" : null,
    })
    .execute();
  return certificateId;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example", firstName: SECRET_NAME });
  await verifyEmail(t, admin);
  for (let i = 0; i < 9; i++) L.push(await signUpUser(t.app, { firstName: SECRET_NAME, lastName: `Quill${i}` }));
  const [L1, L2, L3, L4, L5, L6, L7, L8, L9] = L as [TestUser, ...TestUser[]] & TestUser[];
  lessons = await db()
    .selectFrom("lesson")
    .select(["id", "moduleId"])
    .where("courseId", "=", B)
    .orderBy("position")
    .execute();
  // Accounts: L6 and L7 opened theirs in the previous period, L9 long ago; everyone else today.
  await db()
    .updateTable("user")
    .set({ createdAt: D(50) })
    .where("id", "in", [L6!.id, L7!.id])
    .execute();
  await db()
    .updateTable("user")
    .set({ createdAt: D(800) })
    .where("id", "=", L9!.id)
    .execute();
  for (const [id, percentOff] of [
    ["c20", 20],
    ["cfree", 100],
  ] as const)
    await db()
      .insertInto("coupon")
      .values({
        id,
        code: id.toUpperCase(),
        percentOff,
        amountOff: null,
        courseId: null,
        expiresAt: null,
        maxRedemptions: null,
        redemptionCount: 1,
        active: true,
        createdAt: D(60),
      })
      .execute();

  // L1 buys, studies and is certified in 8 days: alpha first try, beta at the second, gamma, the exam.
  await order(L1!, B, 2000, D(28));
  await enrolment(L1!, B, "purchase", D(28));
  await lessonsDone(L1!, B, "alpha", D(27));
  await attempt(L1!, B, "alpha", 100, D(26));
  await lessonsDone(L1!, B, "beta", D(25));
  await attempt(L1!, B, "beta", 60, D(25));
  await attempt(L1!, B, "beta", 100, D(24));
  await lessonsDone(L1!, B, "gamma", D(22));
  await attempt(L1!, B, "#final-exam", 90, D(21));
  await db()
    .insertInto("courseProgress")
    .values({
      id: randomUUID(),
      userId: L1!.id,
      courseId: B,
      isCompleted: true,
      completedAt: D(21),
      createdAt: D(27),
      updatedAt: D(21),
    })
    .execute();
  await certificate(L1!, B, D(20), new Date(today + 730 * DAY).toISOString());
  // L2 buys with 20% off and is refunded two days later, inside the period: the enrolment is gone.
  await order(L2!, B, 1600, D(10), { couponId: "c20", refundedAt: D(8) });
  // L3 claims the course free with a coupon and reads one lesson yesterday.
  await order(L3!, B, 0, D(3), { couponId: "cfree", kind: "free" });
  await enrolment(L3!, B, "coupon", D(3));
  await oneLesson(L3!, B, lessons[0]!.id, D(1));
  // L4, enrolled by an admin, passes alpha at once and then stalls at beta (nothing for 23 days).
  await enrolment(L4!, B, "admin", D(25));
  await lessonsDone(L4!, B, "alpha", D(24));
  await attempt(L4!, B, "alpha", 80, D(23));
  // L5 buys, reads one lesson, fails alpha and stalls there.
  await order(L5!, B, 2000, D(20));
  await enrolment(L5!, B, "purchase", D(20));
  await oneLesson(L5!, B, lessons[0]!.id, D(19));
  await attempt(L5!, B, "alpha", 40, D(18));
  // L6 bought in the previous period, failed alpha then, passed it at the second try in this one, and
  // was refunded five days ago (a refund now of an earlier period's order).
  await order(L6!, B, 2000, D(40), { refundedAt: D(5) });
  await oneLesson(L6!, B, lessons[0]!.id, D(39));
  await attempt(L6!, B, "alpha", 60, D(38));
  await attempt(L6!, B, "alpha", 90, D(27));
  // L7 bought the other course in the previous period, was certified then, and revoked in this one.
  await order(L7!, O, 2000, D(45));
  await enrolment(L7!, O, "purchase", D(45));
  await oneLesson(L7!, O, "delta-one", D(44));
  await certificate(L7!, O, D(35), new Date(today + 30 * DAY).toISOString(), D(9));
  // L9's certificate from long ago expires in 30 days; it was extended four days ago.
  const old = await certificate(L9!, O, D(700), new Date(today + 30 * DAY).toISOString());
  await db()
    .insertInto("certificateRenewal")
    .values({
      id: randomUUID(),
      certificateId: old,
      kind: "extension",
      previousExpiresAt: D(1),
      newExpiresAt: new Date(today + 30 * DAY).toISOString(),
      renewedAt: D(4),
      attemptId: null,
      actorId: admin.id,
      reason: "seeded",
      supersededCredentialId: null,
      supersededCredential: null,
    })
    .execute();
  // L8 is enrolled by an admin today, through the admin route.
  const enrolled = await request(t.app, "POST", "/api/admin-enroll-user", {
    cookie: admin.cookie,
    payload: { userEmail: L8!.email, courseId: B },
  });
  expect(enrolled.statusCode).toBe(200);
});
afterAll(async () => t?.close());

const get = (url: string, cookie = admin.cookie) => request(t.app, "GET", url, { cookie });

/** Nothing rolled up: every figure from the raw rows. */
async function clearRollup() {
  await db().deleteFrom("analyticsRollup").execute();
  await db().deleteFrom("analyticsDay").execute();
  await db().deleteFrom("activeLearnerDay").execute();
  await db().deleteFrom("activeLearnerGap").execute();
  await db().deleteFrom("learnerMilestoneCourse").execute();
  await db().deleteFrom("learnerMilestone").execute();
}

describe.each([
  ["from the raw rows", clearRollup],
  ["with the finished days from the daily rollup", () => rollUpAnalytics(db())],
])("owner analytics, %s", (_, prepare) => {
  beforeAll(async () => {
    await prepare();
  });

  it("sales for the period and the one before, worked out by hand", async () => {
    const res = await get(`/api/admin/analytics/overview?${period}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as AnalyticsOverview;
    expect(body.period).toEqual({
      from: FROM,
      to: TO,
      days: 30,
      previousFrom: day(59),
      previousTo: day(30),
      interval: "day",
    });
    // Paid: L1 20.00, L2 16.00, L5 20.00 (the free claim is a coupon use, not an order).
    // Refunded in the period: L2 16.00 and L6 20.00 (L6 paid in the previous period).
    expect(body.sales.current).toEqual({
      grossCents: 5600,
      refundsCents: 3600,
      netCents: 2000,
      orders: 3,
      averageOrderCents: 1867,
      couponUses: 2,
      refundCount: 2,
      refundRate: 2 / 3,
    });
    expect(body.sales.previous).toEqual({
      grossCents: 4000,
      refundsCents: 0,
      netCents: 4000,
      orders: 2,
      averageOrderCents: 2000,
      couponUses: 0,
      refundCount: 0,
      refundRate: 0,
    });
    expect(body.sales.byCourse).toEqual([
      { courseId: B, title: "Fixture Basics", grossCents: 5600, refundsCents: 3600, netCents: 2000, orders: 3 },
    ]);
    expect(body.sales.series).toHaveLength(30);
    const at = (n: number) => body.sales.series[29 - n]!;
    expect(at(28)).toEqual({ date: day(28), grossCents: 2000, refundsCents: 0, netCents: 2000, orders: 1 });
    expect(at(8)).toEqual({ date: day(8), grossCents: 0, refundsCents: 1600, netCents: -1600, orders: 0 });
    expect(at(3)).toEqual({ date: day(3), grossCents: 0, refundsCents: 0, netCents: 0, orders: 0 });
    expect(body.sales.series.reduce((s, p) => s + p.netCents, 0)).toBe(2000);
  });

  it("learners and certificates for the period and the one before", async () => {
    const body = (await get(`/api/admin/analytics/overview?${period}`)).json() as AnalyticsOverview;
    // Accounts today: the admin, L1-L5 and L8; enrolments: L1 and L5 paid, L3 free, L4 and L8 by an admin.
    // Active: L1, L3, L4, L5 and L6 (L6's retake).
    expect(body.learners.current).toEqual({
      newAccounts: 7,
      enrolments: { paid: 2, freeCoupon: 1, admin: 2, total: 5 },
      activeLearners: 5,
      completions: 1,
      certificatesIssued: 1,
    });
    expect(body.learners.previous).toEqual({
      newAccounts: 2,
      enrolments: { paid: 1, freeCoupon: 0, admin: 0, total: 1 },
      activeLearners: 2,
      completions: 0,
      certificatesIssued: 1,
    });
    const at = (n: number) => body.learners.series[29 - n]!;
    // 27 days ago: L1's alpha lessons and L6's retake; today: the new accounts and L8's enrolment.
    expect(at(27)).toMatchObject({ activeLearners: 2, enrolments: 0 });
    expect(at(0)).toMatchObject({ newAccounts: 7, enrolments: 1, activeLearners: 0 });
    expect(at(20)).toMatchObject({ enrolments: 1, certificatesIssued: 1 });
    // L9's certificate expires in 30 days (L7's too, but it is revoked).
    expect(body.certificates).toEqual({
      expiringSoon: 1,
      current: { issued: 1, renewed: 1, revoked: 1 },
      previous: { issued: 1, renewed: 0, revoked: 0 },
    });
    // Counts only: no learner's name or address anywhere in the answer.
    expect(JSON.stringify(body)).not.toContain(SECRET_NAME);
    expect(JSON.stringify(body)).not.toContain("@example.com");
  });

  it("the funnel of the learners enrolled in the period, and where they stop", async () => {
    const res = await get(`/api/admin/analytics/funnel?${period}&courseId=${B}`);
    expect(res.statusCode).toBe(200);
    const f = res.json() as CourseFunnel;
    // Enrolled in the period: L1, L3, L4, L5, L8 (L2 and L6 were refunded, so not enrolled).
    expect(f.steps.map((s) => [s.key, s.count])).toEqual([
      ["enrolled", 5],
      ["first-lesson", 4],
      ["module:alpha", 2],
      ["module:beta", 1],
      ["module:gamma", 1],
      ["final-exam", 1],
      ["certified", 1],
    ]);
    expect(f.steps[1]).toMatchObject({ shareOfEnrolled: 0.8, shareKept: 0.8 });
    expect(f.steps[2]).toMatchObject({ shareOfEnrolled: 0.4, shareKept: 0.5 });
    expect(f.steps[0]!.shareKept).toBeNull();
    expect(f.medianDaysToCertificate).toBe(8);
    // alpha: everyone reached it, L5 stalled; beta: L1 and L4 reached it, L4 stalled; gamma: only L1.
    // L3 and L8 were enrolled less than 14 days ago, so they have not stalled.
    expect(f.stalls).toEqual([
      { moduleId: "alpha", title: expect.any(String), reached: 5, stalled: 1, share: 0.2 },
      { moduleId: "beta", title: expect.any(String), reached: 2, stalled: 1, share: 0.5 },
      { moduleId: "gamma", title: expect.any(String), reached: 1, stalled: 0, share: 0 },
    ]);
    expect(f.stallDays).toBe(14);
    expect(JSON.stringify(f)).not.toContain(SECRET_NAME);
    // The previous period's cohort of this course is empty (L6's enrolment ended with the refund).
    const before = (await get(`/api/admin/analytics/funnel?from=${day(59)}&to=${day(30)}&courseId=${B}`)).json();
    expect((before as CourseFunnel).steps.every((s) => s.count === 0)).toBe(true);
    expect((before as CourseFunnel).medianDaysToCertificate).toBeNull();
  });

  it("attempts, first-try pass rate and mean score per quiz and exam", async () => {
    const res = await get(`/api/admin/analytics/assessments?${period}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as AnalyticsAssessments;
    const of = (courseId: string, assessment: string) =>
      body.items.find((i) => i.courseId === courseId && i.assessment === assessment);
    // alpha: L1 100, L4 80, L5 40 at their first try; L6's 90 is a second try (the first was earlier).
    expect(of(B, "alpha")).toMatchObject({ attempts: 4, firstAttempts: 3, firstTryPassRate: 2 / 3, meanScore: 77.5 });
    expect(of(B, "beta")).toMatchObject({ attempts: 2, firstAttempts: 1, firstTryPassRate: 0, meanScore: 80 });
    expect(of(B, "exam")).toMatchObject({ attempts: 1, firstAttempts: 1, firstTryPassRate: 1, meanScore: 90 });
    expect(of(O, "delta")).toMatchObject({ attempts: 0, firstTryPassRate: null, meanScore: null });
    const previous = (
      await get(`/api/admin/analytics/assessments?from=${day(59)}&to=${day(30)}`)
    ).json() as AnalyticsAssessments;
    expect(previous.items.find((i) => i.courseId === B && i.assessment === "alpha")).toMatchObject({
      attempts: 1,
      firstAttempts: 1,
      firstTryPassRate: 0,
      meanScore: 60,
    });
  });

  it("a long period goes week by week with the same totals", async () => {
    const body = (await get(`/api/admin/analytics/overview?from=${day(89)}&to=${TO}`)).json() as AnalyticsOverview;
    expect(body.period.interval).toBe("week");
    expect(body.sales.series).toHaveLength(13);
    expect(body.sales.series[1]!.date).toBe(day(82));
    // 90 days hold both periods above: 56.00 + 40.00 paid, 36.00 refunded.
    expect(body.sales.current.grossCents).toBe(9600);
    expect(body.sales.series.reduce((s, p) => s + p.grossCents, 0)).toBe(9600);
    expect(body.sales.series.reduce((s, p) => s + p.refundsCents, 0)).toBe(3600);
    expect(body.learners.series.reduce((s, p) => s + p.enrolments, 0)).toBe(6);
  });

  it("exports each table as CSV, in dollars with two decimals", async () => {
    const csv = async (query: string) => {
      const res = await get(`/api/admin/analytics/export.csv?${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="analytics-/);
      return res.body.trim().split("\r\n");
    };
    expect(await csv(`table=sales-by-course&${period}`)).toEqual([
      "course,title,gross_usd,refunds_usd,net_usd,orders",
      `${B},Fixture Basics,56.00,36.00,20.00,3`,
    ]);
    const overTime = await csv(`table=sales-over-time&${period}`);
    expect(overTime).toHaveLength(31);
    expect(overTime).toContain(`${day(8)},0.00,16.00,-16.00,0`);
    expect(await csv(`table=funnel&${period}&courseId=${B}`)).toContain("First lesson completed,4,80.0,80.0");
    expect(await csv(`table=stalls&${period}&courseId=${B}`)).toContain("beta,Module Beta,2,1,50.0");
    expect((await csv(`table=assessments&${period}`)).find((l) => l.startsWith(`${B},alpha,`))).toMatch(
      /,4,3,66\.7,77\.5$/,
    );
    expect(await csv(`table=learners-over-time&${period}`)).toContain(`${day(0)},7,1,0,0,0`);
  });

  it("refuses anyone but an admin, and bad periods", async () => {
    const learner = L[0]!;
    for (const path of ["overview", "assessments", `funnel?courseId=${B}&x=`]) {
      const url = `/api/admin/analytics/${path.includes("?") ? path.replace("&x=", `&${period}`) : `${path}?${period}`}`;
      expect((await get(url, learner.cookie)).statusCode).toBe(403);
      expect((await request(t.app, "GET", url)).statusCode).toBe(401);
    }
    expect(
      (await get(`/api/admin/analytics/export.csv?table=funnel&${period}&courseId=${B}`, learner.cookie)).statusCode,
    ).toBe(403);
    const bad = await get(`/api/admin/analytics/overview?from=${TO}&to=${FROM}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/start must not be after its end/);
    expect((await get("/api/admin/analytics/overview?from=2020-01-01&to=2026-01-01")).statusCode).toBe(400);
    expect((await get("/api/admin/analytics/overview?from=2026-02-30&to=2026-03-01")).statusCode).toBe(400);
    // Year 0 is a date to JavaScript, not to PostgreSQL: refused before it reaches the database.
    expect((await get("/api/admin/analytics/overview?from=0000-01-01&to=0000-01-02")).statusCode).toBe(400);
    expect((await get(`/api/admin/analytics/funnel?${period}&courseId=nope`)).statusCode).toBe(404);
    expect((await get(`/api/admin/analytics/export.csv?table=funnel&${period}`)).statusCode).toBe(400);
  });
});
