import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draft } from "#shared/schemas/studio.ts";
import {
  createTestApp,
  enrol,
  request,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

// Who reviewed a course version, with what credential and when (decision 0058).
let t: TestApp;
let admin: TestUser;
let instructor: TestUser;
let learner: TestUser;
const COURSE = "fixture-basics";
const reviewUrl = (version: number) => `/api/studio/courses/${COURSE}/versions/${version}/review`;
const review = (user: TestUser | null, version: number, payload: unknown) =>
  request(t.app, "PUT", reviewUrl(version), { cookie: user?.cookie, payload });
const shown = async () => {
  const course = (await request(t.app, "GET", `/api/courses/${COURSE}`)).json();
  const lesson = (
    await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: learner.cookie })
  ).json();
  return { course: course.review, lesson: lesson.review, version: course.version };
};
const dietitian = { reviewerName: "Dana Whitfield", credential: "MS, RDN (Commission on Dietetic Registration)" };
const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const reviewRows = () => t.testDb.database.db.selectFrom("courseReview").selectAll().execute();

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  instructor = await signUpUser(t.app);
  await request(t.app, "PUT", `/api/admin/learners/${instructor.id}/role`, {
    cookie: admin.cookie,
    payload: { role: "instructor" },
  });
  learner = await signUpUser(t.app);
  await enrol(t, learner, COURSE);
  // Version 1 as if published on 2026-11-20: the review boundary sits on a known day, away from today.
  await t.testDb.database.db
    .updateTable("courseVersion")
    .set({ publishedAt: "2026-11-20T15:30:00.000Z" })
    .where("courseId", "=", COURSE)
    .where("version", "=", 1)
    .execute();
});
afterAll(async () => t?.close());

describe("a content review names its reviewer and covers the version it was made on", () => {
  it("lets admins only record a review, and refuses bad input with a message", async () => {
    const body = { ...dietitian, reviewedOn: "2026-11-25" };
    const before = await reviewRows();
    const page = await shown();
    expect((await review(null, 1, body)).statusCode).toBe(401);
    expect((await review(learner, 1, body)).statusCode).toBe(403);
    expect((await review(instructor, 1, body)).statusCode).toBe(403);
    for (const bad of [
      { ...body, reviewerName: "" },
      { reviewerName: body.reviewerName, reviewedOn: body.reviewedOn },
      { ...body, reviewedOn: "25/11/2026" },
      { ...body, extra: true },
    ]) {
      const res = await review(admin, 1, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const missing = await review(admin, 99, body);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/Version 99/);
    expect(await reviewRows()).toEqual(before);
    expect(await shown()).toEqual(page);
  });

  // One story, in order (the tests of a file run shuffled).
  it("needs a named review on or after the version's publication and not in the future, and never carries it to a new version", async () => {
    // The fixture's course.json has a review date and a reviewer role, but names nobody: nothing is shown.
    expect(await shown()).toEqual({ course: null, lesson: null, version: 1 });

    const before = await review(admin, 1, { ...dietitian, reviewedOn: "2026-11-19" });
    expect(before.statusCode).toBe(422);
    expect(before.json().message).toMatch(/before version 1 was published \(2026-11-20\)/);
    expect(await shown()).toMatchObject({ course: null, lesson: null });

    const onTheDay = await review(admin, 1, { ...dietitian, reviewedOn: "2026-11-20" });
    expect(onTheDay.statusCode).toBe(200);
    expect(onTheDay.json()).toEqual({ courseId: COURSE, version: 1, ...dietitian, reviewedOn: "2026-11-20" });
    const expected = { ...dietitian, reviewedOn: "2026-11-20" };
    expect(await shown()).toEqual({ course: expected, lesson: expected, version: 1 });

    const tomorrow = await review(admin, 1, { ...dietitian, reviewedOn: dayAfter(today(), 1) });
    expect(tomorrow.statusCode).toBe(422);
    expect(tomorrow.json().message).toMatch(/in the future/);

    const again = { reviewerName: "Dr. Sam Okafor", credential: "PhD, RDN", reviewedOn: today() };
    const [a, b] = await Promise.all([review(admin, 1, again), review(admin, 1, again)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const rows = await reviewRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: 1, reviewerName: "Dr. Sam Okafor", recordedBy: admin.id });
    expect((await shown()).course).toEqual({
      reviewerName: "Dr. Sam Okafor",
      credential: "PhD, RDN",
      reviewedOn: today(),
    });

    // A new version, even a wording change, is not covered by the review of the one before.
    const draft = (
      await request(t.app, "GET", `/api/studio/courses/${COURSE}/draft`, { cookie: admin.cookie })
    ).json() as Draft;
    const doc = structuredClone(draft.document);
    const lesson = doc.modules.find((m) => m.id === "alpha")?.lessons[0];
    if (!lesson) throw new Error("no alpha lesson");
    lesson.body = lesson.body.replace("This is the body", "This is the reworded body");
    const saved = await request(t.app, "PUT", `/api/studio/courses/${COURSE}/draft`, {
      cookie: admin.cookie,
      payload: { baseRevision: draft.revision, document: doc },
    });
    expect(saved.statusCode).toBe(200);
    const published = await request(t.app, "POST", `/api/studio/courses/${COURSE}/publish`, {
      cookie: admin.cookie,
      payload: { kind: "minor", note: "Reworded lesson one", baseRevision: saved.json().revision },
    });
    expect(published.statusCode).toBe(200);
    expect(await shown()).toEqual({ course: null, lesson: null, version: 2 });

    const second = await review(admin, 2, { ...dietitian, reviewedOn: today() });
    expect(second.statusCode).toBe(200);
    expect(await shown()).toEqual({
      course: { ...dietitian, reviewedOn: today() },
      lesson: { ...dietitian, reviewedOn: today() },
      version: 2,
    });
    // The earlier version keeps its own review; the audit log has each record.
    expect((await reviewRows()).map((r) => r.version).sort()).toEqual([1, 2]);
    const audit = await t.testDb.database.db
      .selectFrom("auditLog")
      .select("action")
      .where("action", "=", "course.review")
      .execute();
    expect(audit.length).toBe(4);
  });
});
