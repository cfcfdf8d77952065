import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeLessons, newLearner, passQuiz, RIGHT_ANSWERS } from "../setup/factories.ts";
import { createTestApp, request, type TestApp } from "../setup/test-app.ts";

let t: TestApp;

const ALPHA_RIGHT = RIGHT_ANSWERS["fixture-basics"].alpha;
const BETA_RIGHT = RIGHT_ANSWERS["fixture-basics"].beta;
/** n of the 24 delta questions right: the answer key cycles a, b, c, d. */
const delta = (n: number) =>
  Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`q${i + 1}`, i < n ? "abcd"[i % 4] : "abcd"[(i + 1) % 4]]));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const post = (url: string, cookie?: string, payload: unknown = {}) => request(t.app, "POST", url, { cookie, payload });
const get = (url: string, cookie?: string) => request(t.app, "GET", url, { cookie });

describe("progress", () => {
  it("is for enrolled learners only, and starts as the default empty progress", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-other"] });
    const outsider = await newLearner(t);
    expect((await get("/api/progress/fixture-basics")).statusCode).toBe(401);
    expect((await get("/api/progress/fixture-basics", outsider.cookie)).statusCode).toBe(403);
    expect((await get("/api/progress/no-course", student.cookie)).statusCode).toBe(404);
    const res = await get("/api/progress/fixture-other", student.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      userId: student.id,
      courseId: "fixture-other",
      currentModuleIndex: 0,
      currentLessonIndex: 0,
      completedLessons: [],
      completedModules: [],
      quizScores: {},
      isCompleted: false,
      completedAt: null,
      percent: 0,
    });
  });

  it("records a completed lesson once, however often it is sent, and needs enrolment and an unlocked module", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const outsider = await newLearner(t);
    const url = "/api/progress/fixture-basics/lessons/alpha-one/complete";
    expect((await post(url)).statusCode).toBe(401);
    expect((await post(url, outsider.cookie)).statusCode).toBe(403);
    expect((await post("/api/progress/fixture-basics/lessons/beta-one/complete", student.cookie)).statusCode).toBe(403);
    expect((await post("/api/progress/fixture-basics/lessons/nope/complete", student.cookie)).statusCode).toBe(404);
    // The browser sends this POST with no body and no content type at all.
    expect((await request(t.app, "POST", url, { cookie: student.cookie })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await post(url, student.cookie)).statusCode).toBe(200);
    const progress = (await get("/api/progress/fixture-basics", student.cookie)).json();
    expect(progress.completedLessons).toEqual(["alpha-one"]);
    // 1 of 5 lessons, 0 of 2 quizzes: round(70 * 1/5) = 14
    expect(progress.percent).toBe(14);
    expect(progress.currentLessonIndex).toBe(1);
  });

  it("never shows or changes another learner's progress", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const other = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    await completeLessons(t, student, "fixture-basics", ["alpha-one"]);
    const theirs = (await get("/api/progress/fixture-basics", other.cookie)).json();
    expect(theirs.userId).toBe(other.id);
    expect(theirs.completedLessons).toEqual([]);
    const mine = (await get("/api/progress/fixture-basics", student.cookie)).json();
    expect(mine.completedLessons).toEqual(["alpha-one"]);
  });

  it("refuses to complete the course with 409 until every module is complete, and ignores the client's time", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    await completeLessons(t, student, "fixture-basics", ["alpha-one"]);
    const res = await request(t.app, "PUT", "/api/progress/fixture-basics", {
      cookie: student.cookie,
      payload: { isCompleted: true, completedAt: "1999-01-01T00:00:00.000Z" },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/every module/);
    const bad = await request(t.app, "PUT", "/api/progress/fixture-basics", {
      cookie: student.cookie,
      payload: { isCompleted: false },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("quizzes graded on the server", () => {
  it("serves questions without answers; the first module's quiz to anyone, others by unlock", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const outsider = await newLearner(t);
    const open = await get("/api/quiz/fixture-basics/alpha");
    expect(open.statusCode).toBe(200);
    expect(open.json().questions).toHaveLength(5);
    expect(open.json().questions[0]).toEqual({
      id: "q1",
      question: "Question 1 of alpha?",
      options: expect.any(Array),
    });
    expect(open.json().recorded).toBe(false);
    expect((await get("/api/quiz/fixture-basics/beta")).statusCode).toBe(401);
    expect((await get("/api/quiz/fixture-basics/beta", outsider.cookie)).statusCode).toBe(403);
    expect((await get("/api/quiz/fixture-basics/beta", student.cookie)).statusCode).toBe(403);
    expect((await get("/api/quiz/fixture-basics/gamma", student.cookie)).statusCode).toBe(404);
    expect((await get("/api/quiz/fixture-basics/nope", student.cookie)).statusCode).toBe(404);
  });

  it("needs every question answered once with a valid option", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const url = "/api/quiz/fixture-basics/alpha";
    expect((await post(url, student.cookie, { answers: { q1: "a" } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: { ...ALPHA_RIGHT, q2: "z" } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: { ...ALPHA_RIGHT, q9: "a" } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: ALPHA_RIGHT, score: 100 })).statusCode).toBe(400);
  });

  it("grades a visitor's preview attempt without storing it", async () => {
    const attempts = async () =>
      Number(
        (
          await t.testDb.database.db
            .selectFrom("quizAttempt")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await attempts();
    const res = await post("/api/quiz/fixture-basics/alpha", undefined, { answers: ALPHA_RIGHT });
    expect(res.json()).toMatchObject({ score: 100, passed: true, recorded: false });
    expect(await attempts()).toBe(before);
  });

  it("fails at 60% without revealing answers, then passes at 80% with explanations, keeping the best score and unlocking the next module", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const url = "/api/quiz/fixture-basics/alpha";
    const fail = (await post(url, student.cookie, { answers: { ...ALPHA_RIGHT, q1: "b", q2: "a" } })).json();
    expect(fail).toMatchObject({
      score: 60,
      correctCount: 3,
      incorrectCount: 2,
      total: 5,
      passed: false,
      passMark: 80,
      recorded: true,
    });
    expect(
      fail.review.filter((r: { correct: boolean }) => !r.correct).map((r: { questionId: string }) => r.questionId),
    ).toEqual(["q1", "q2"]);
    expect(JSON.stringify(fail)).not.toMatch(/correctAnswer|explanation/);
    expect((await get("/api/courses/fixture-basics/lessons/beta-one", student.cookie)).statusCode).toBe(403);

    const pass = (await post(url, student.cookie, { answers: { ...ALPHA_RIGHT, q5: "b" } })).json();
    expect(pass).toMatchObject({ score: 80, correctCount: 4, passed: true, bestScore: 80 });
    expect(pass.review[0]).toEqual({
      questionId: "q1",
      correct: true,
      correctAnswer: "a",
      explanation: "Because a is right.",
    });

    // A worse retake keeps the best score.
    await post(url, student.cookie, { answers: { ...ALPHA_RIGHT, q1: "b", q2: "a", q3: "a" } });
    const progress = (await get("/api/progress/fixture-basics", student.cookie)).json();
    expect(progress.quizScores.alpha).toEqual({ score: 40, passed: true, attempts: 3, bestScore: 80 });
    expect(progress.completedModules).toEqual(["alpha"]);
    expect((await get("/api/courses/fixture-basics/lessons/beta-one", student.cookie)).statusCode).toBe(200);
    const detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(detail.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "in-progress", "locked"]);
  });

  it("fails at 79% and passes at 80% or more", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-other"] });
    const url = "/api/quiz/fixture-other/delta";
    const r79 = (await post(url, student.cookie, { answers: delta(19) })).json();
    expect(r79).toMatchObject({ score: 79, passed: false });
    const r83 = (await post(url, student.cookie, { answers: delta(20) })).json();
    expect(r83).toMatchObject({ score: 83, passed: true });
  });

  it("completes the whole course, then allows PUT progress with the server's time", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    await completeLessons(t, student, "fixture-basics", ["alpha-one"]);
    await passQuiz(t, student, "alpha");
    for (const id of ["alpha-two", "beta-one", "beta-two"])
      expect((await post(`/api/progress/fixture-basics/lessons/${id}/complete`, student.cookie)).statusCode).toBe(200);
    expect((await post("/api/quiz/fixture-basics/beta", student.cookie, { answers: BETA_RIGHT })).json().passed).toBe(
      true,
    );
    // gamma has no quiz: it completes when its lessons are done.
    let detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(detail.modules[2].state).toBe("in-progress");
    expect(detail.allModulesComplete).toBe(false);
    await post("/api/progress/fixture-basics/lessons/gamma-one/complete", student.cookie);
    detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(detail.allModulesComplete).toBe(true);
    expect(detail.percent).toBe(100);
    expect(detail.isCompleted).toBe(false);

    const before = Date.now();
    const res = await request(t.app, "PUT", "/api/progress/fixture-basics", {
      cookie: student.cookie,
      payload: { isCompleted: true, completedAt: "1999-01-01T00:00:00.000Z" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().isCompleted).toBe(true);
    expect(new Date(res.json().completedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("My Learning", () => {
  it("lists only the caller's enrolled courses, with the same progress figure as the course page", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics", "fixture-other"] });
    const outsider = await newLearner(t);
    await completeLessons(t, student, "fixture-basics", ["alpha-one"]);
    await passQuiz(t, student, "alpha");
    expect((await get("/api/my-learning")).statusCode).toBe(401);
    const mine = (await get("/api/my-learning", student.cookie)).json();
    expect(mine.map((c: { courseId: string }) => c.courseId).sort()).toEqual(["fixture-basics", "fixture-other"]);
    const basics = mine.find((c: { courseId: string }) => c.courseId === "fixture-basics");
    const detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(basics).toMatchObject({
      title: "Fixture Basics",
      level: "Beginner",
      percent: detail.percent,
      lessonCount: 5,
      isCompleted: detail.isCompleted,
    });
    expect(basics.lessonsDone).toBe(
      detail.modules
        .flatMap((m: { lessons: { completed: boolean }[] }) => m.lessons)
        .filter((l: { completed: boolean }) => l.completed).length,
    );
    expect((await get("/api/my-learning", outsider.cookie)).json()).toEqual([]);
  });
});

describe("races", () => {
  it("loses no write when the same learner completes lessons and submits quizzes in parallel", async () => {
    const racer = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const results = await Promise.all([
      post("/api/progress/fixture-basics/lessons/alpha-one/complete", racer.cookie),
      post("/api/progress/fixture-basics/lessons/alpha-two/complete", racer.cookie),
      post("/api/progress/fixture-basics/lessons/alpha-one/complete", racer.cookie),
      post("/api/quiz/fixture-basics/alpha", racer.cookie, { answers: ALPHA_RIGHT }),
      post("/api/quiz/fixture-basics/alpha", racer.cookie, { answers: { ...ALPHA_RIGHT, q1: "b" } }),
      post("/api/quiz/fixture-basics/alpha", racer.cookie, { answers: { ...ALPHA_RIGHT, q1: "b", q2: "a" } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const progress = (await get("/api/progress/fixture-basics", racer.cookie)).json();
    expect([...progress.completedLessons].sort()).toEqual(["alpha-one", "alpha-two"]);
    expect(progress.quizScores.alpha.attempts).toBe(3);
    expect(progress.quizScores.alpha.bestScore).toBe(100);
  });
});
