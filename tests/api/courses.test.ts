import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, enrol, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

let t: TestApp;
let learner: TestUser;
let enrolled: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  learner = await signUpUser(t.app);
  enrolled = await signUpUser(t.app);
  await enrol(t, enrolled, "fixture-basics");
});
afterAll(async () => t?.close());

describe("catalogue", () => {
  it("lists the course cards in order with their fields", async () => {
    const res = await request(t.app, "GET", "/api/courses");
    expect(res.statusCode).toBe(200);
    const cards = res.json();
    expect(cards.map((c: { id: string }) => c.id)).toEqual(["fixture-basics", "fixture-other", "fixture-soon"]);
    expect(cards[0]).toEqual({
      id: "fixture-basics",
      title: "Fixture Basics",
      description: "Fixture Basics: a small fixture course for tests.",
      level: "Beginner",
      price: 2000,
      duration: "4 weeks",
      studyHours: 6,
      moduleCount: 3,
      lessonCount: 5,
      gradient: "from-sky-500 to-blue-700",
      comingSoon: false,
      marketplaceUrl: null,
    });
    expect(cards[2].comingSoon).toBe(true);
    expect(cards[1].studyHours).toBeNull();
  });

  it("gives the course detail with outcomes, modules, lessons and quiz summaries, and no lesson body", async () => {
    const res = await request(t.app, "GET", "/api/courses/fixture-basics");
    expect(res.statusCode).toBe(200);
    const course = res.json();
    expect(course.learningOutcomes).toEqual(["Explain the basics", "Apply the basics"]);
    expect(course).toMatchObject({ version: 1, update: null });
    expect(course.seo.keywords).toEqual(["fixture", "test"]);
    expect(course.modules.map((m: { id: string }) => m.id)).toEqual(["alpha", "beta", "gamma"]);
    expect(course.modules[0].quiz).toMatchObject({ title: "Quiz alpha", questionCount: 5 });
    expect(course.modules[2].quiz).toBeNull();
    expect(res.body).not.toContain("This is the body of lesson");
    expect(res.body).not.toContain("correctAnswer");
    expect(res.body).not.toContain("explanation");
  });

  it("answers 404 with the spec's text for an unknown course", async () => {
    const res = await request(t.app, "GET", "/api/courses/no-such-course");
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe("This course could not be found or is not available.");
  });

  it("shows a visitor and a non-enrolled learner the preview locks, and an enrolled learner module states", async () => {
    const visitor = (await request(t.app, "GET", "/api/courses/fixture-basics")).json();
    expect(visitor.enrolled).toBe(false);
    expect(visitor.modules[0].lessons.map((l: { accessible: boolean }) => l.accessible)).toEqual([true, false]);
    expect(visitor.modules[0].quiz.accessible).toBe(true);
    expect(visitor.modules[1].state).toBe("locked");

    const other = (await request(t.app, "GET", "/api/courses/fixture-basics", { cookie: learner.cookie })).json();
    expect(other.enrolled).toBe(false);
    expect(other.modules[0].lessons[1].accessible).toBe(false);

    const mineRes = await request(t.app, "GET", "/api/courses/fixture-basics", { cookie: enrolled.cookie });
    // A learner's own page is never kept by a shared cache (the same address answers visitors too).
    expect(mineRes.headers["cache-control"]).toBe("private, no-cache");
    const mine = mineRes.json();
    expect(mine.enrolled).toBe(true);
    expect(mine.modules.map((m: { state: string }) => m.state)).toEqual(["in-progress", "locked", "locked"]);
    expect(mine.modules[0].lessons.every((l: { accessible: boolean }) => l.accessible)).toBe(true);
    expect(mine.modules[1].lessons.some((l: { accessible: boolean }) => l.accessible)).toBe(false);
    expect(mine.percent).toBe(0);
  });
});

describe("lesson access (preview rules on the server)", () => {
  const lesson = (id: string, cookie?: string) =>
    request(t.app, "GET", `/api/courses/fixture-basics/lessons/${id}`, { cookie });

  it("lets anyone read the first lesson of the first module", async () => {
    for (const cookie of [undefined, learner.cookie, enrolled.cookie]) {
      const res = await lesson("alpha-one", cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        title: "Lesson alpha-one",
        moduleTitle: "Module Alpha",
        numberInModule: 1,
        position: 0,
        totalLessons: 5,
        nextLessonId: "alpha-two",
        previousLessonId: null,
      });
      expect(res.json().html).toContain("This is the body of lesson alpha-one");
    }
  });

  it("answers 401 to a visitor, 403 to a learner who is not enrolled, 200 to an enrolled learner", async () => {
    expect((await lesson("alpha-two")).statusCode).toBe(401);
    const forbidden = await lesson("alpha-two", learner.cookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toMatch(/preview mode/);
    expect((await lesson("alpha-two", enrolled.cookie)).statusCode).toBe(200);
  });

  it("keeps a later module's lessons locked until the previous module is complete", async () => {
    const res = await lesson("beta-one", enrolled.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/locked/);
  });

  it("answers 404 for an unknown lesson", async () => {
    expect((await lesson("no-such-lesson", enrolled.cookie)).statusCode).toBe(404);
    expect((await request(t.app, "GET", "/api/courses/no-course/lessons/alpha-one")).statusCode).toBe(404);
  });
});

describe("enrolments", () => {
  it("needs a signed-in learner", async () => {
    expect((await request(t.app, "GET", "/api/enrollments")).statusCode).toBe(401);
    expect((await request(t.app, "GET", "/api/enrollments/fixture-basics")).statusCode).toBe(401);
  });

  it("lists only the caller's enrolments", async () => {
    const mine = await request(t.app, "GET", "/api/enrollments", { cookie: enrolled.cookie });
    expect(mine.json().map((e: { courseId: string }) => e.courseId)).toEqual(["fixture-basics"]);
    const theirs = await request(t.app, "GET", "/api/enrollments", { cookie: learner.cookie });
    expect(theirs.json()).toEqual([]);
    expect(
      (await request(t.app, "GET", "/api/enrollments/fixture-basics", { cookie: enrolled.cookie })).json(),
    ).toEqual({ enrolled: true });
    expect((await request(t.app, "GET", "/api/enrollments/fixture-basics", { cookie: learner.cookie })).json()).toEqual(
      { enrolled: false },
    );
  });
});
