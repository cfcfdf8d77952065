import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CourseFunnel } from "#shared/schemas/analytics.ts";
import { D, DAY, day, today } from "../setup/analytics.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

/**
 * The funnel's median days from enrolment to certificate, over three and four learners whose days sort
 * differently as numbers and as text (2.5, 9, 10.5 and 30: as text "10.5" < "2.5" < "30" < "9").
 */
const B = "fixture-basics";
let t: TestApp;
let admin: TestUser;
const db = () => t.testDb.database.db;

/** A learner enrolled 40 days ago at noon and certified `days` days later. */
async function certifiedAfter(days: number) {
  const learner = await signUpUser(t.app);
  const enrolledAt = D(40);
  const issuedAt = new Date(Date.parse(enrolledAt) + days * DAY).toISOString();
  await db()
    .insertInto("enrollment")
    .values({ id: randomUUID(), userId: learner.id, courseId: B, source: "admin", createdAt: enrolledAt })
    .execute();
  await db()
    .insertInto("certificate")
    .values({
      id: randomUUID(),
      certificateId: `CERT-${randomUUID().slice(0, 8)}`,
      userId: learner.id,
      courseId: B,
      firstName: "A",
      lastName: "Learner",
      completedAt: issuedAt,
      expiresAt: new Date(today + 700 * DAY).toISOString(),
      issuedAt,
      revokedAt: null,
      revokedReason: null,
    })
    .execute();
}

const median = async () => {
  const res = await request(t.app, "GET", `/api/admin/analytics/funnel?courseId=${B}&from=${day(60)}&to=${day(0)}`, {
    cookie: admin.cookie,
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as CourseFunnel).medianDaysToCertificate;
};

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

describe("the funnel's median days to certificate", () => {
  it("is the middle value of three, and the mean of the middle two of four, in numeric order", async () => {
    expect(await median()).toBeNull();
    for (const days of [10.5, 2.5, 9]) await certifiedAfter(days);
    expect(await median()).toBe(9);
    await certifiedAfter(30);
    expect(await median()).toBe(9.8); // (9 + 10.5) / 2 = 9.75, to one decimal
  });
});
