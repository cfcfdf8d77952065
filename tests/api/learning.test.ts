import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerKey, answersFor, completeCourse, questionLessons, takeAssessment } from "../setup/assessments.ts";
import { completeLessons, newLearner, passQuiz } from "../setup/factories.ts";
import { nth } from "../setup/must.ts";
import { createTestApp, request, type TestApp } from "../setup/test-app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const post = (url: string, cookie?: string, payload: unknown = {}) => request(t.app, "POST", url, { cookie, payload });
const get = (url: string, cookie?: string) => request(t.app, "GET", url, { cookie });
/** Starts (or resumes) an attempt: a bodiless POST. */
const start = (url: string, cookie?: string) => request(t.app, "POST", `${url}/attempt`, { cookie });

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
    // The first completed lesson starts the course: its progress record exists from then on.
    expect(progress.id).not.toBe("");
    expect(progress.createdAt).toEqual(expect.any(String));
    // 1 of 5 lessons, 0 of 3 quizzes (the final exam counts as one): round(70 * 1/5) = 14
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
    expect(res.json().message).toMatch(
      /Complete 4 lessons, the quiz of "Module Alpha", the quiz of "Module Beta" and the final exam/,
    );
    const bad = await request(t.app, "PUT", "/api/progress/fixture-basics", {
      cookie: student.cookie,
      payload: { isCompleted: false },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("quizzes graded on the server", () => {
  it("serves drawn questions without answers; the first module's quiz to anyone, others by unlock", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const outsider = await newLearner(t);
    const open = await start("/api/quiz/fixture-basics/alpha");
    expect(open.statusCode).toBe(200);
    expect(open.json().questions).toHaveLength(5);
    expect(open.json().questions[0]).toEqual({
      id: expect.stringMatching(/^q\d+$/),
      question: expect.stringMatching(/^Question \d+ of alpha\?$/),
      options: expect.any(Array),
    });
    expect(JSON.stringify(open.json())).not.toMatch(/correctAnswer|explanation/);
    expect(open.json().recorded).toBe(false);
    expect((await start("/api/quiz/fixture-basics/beta")).statusCode).toBe(401);
    expect((await start("/api/quiz/fixture-basics/beta", outsider.cookie)).statusCode).toBe(403);
    expect((await start("/api/quiz/fixture-basics/beta", student.cookie)).statusCode).toBe(403);
    expect((await start("/api/quiz/fixture-basics/gamma", student.cookie)).statusCode).toBe(404);
    expect((await start("/api/quiz/fixture-basics/nope", student.cookie)).statusCode).toBe(404);
  });

  it("needs every drawn question answered once with a valid option", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const url = "/api/quiz/fixture-basics/alpha";
    const quiz = (await start(url, student.cookie)).json();
    const right = answersFor(quiz, answerKey("fixture-basics", "alpha"), 5);
    const [first, second] = quiz.questions.map((q: { id: string }) => q.id);
    expect((await post(url, student.cookie, { answers: { [first]: right[first] } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: { ...right, [second]: "z" } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: { ...right, q99: "a" } })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: right, score: 100 })).statusCode).toBe(400);
    expect((await post(url, student.cookie, { answers: right })).json()).toMatchObject({ score: 100, passed: true });
  });

  it("grades a visitor's preview attempt without storing it", async () => {
    const count = async (table: "quizAttempt" | "assessmentAttempt") =>
      Number(
        (
          await t.testDb.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await count("quizAttempt"), await count("assessmentAttempt")];
    const { result } = await takeAssessment(t.app, undefined, "fixture-basics", "alpha");
    expect(result).toMatchObject({ score: 100, passed: true, recorded: false, attemptsLeft: null });
    expect([await count("quizAttempt"), await count("assessmentAttempt")]).toEqual(before);
  });

  it("names a lesson to revisit even when every question drawn from it was answered right", async () => {
    const key = answerKey("fixture-basics", "alpha");
    const lessonOf = questionLessons("fixture-basics", "alpha");
    // The draw is random: take learners until one draws questions of both lessons, few enough of
    // alpha-two that answering only those right still fails.
    for (let tries = 0; tries < 20; tries++) {
      const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
      const quiz = (await start("/api/quiz/fixture-basics/alpha", student.cookie)).json();
      const ids: string[] = quiz.questions.map((q: { id: string }) => q.id);
      const rightOnes = ids.filter((id) => lessonOf.get(id) === "alpha-two");
      if (rightOnes.length === 0 || rightOnes.length > 3) continue;
      const answers = Object.fromEntries(
        quiz.questions.map((q: { id: string; options: { id: string }[] }) => {
          const right = key.get(q.id)!;
          return [q.id, rightOnes.includes(q.id) ? right : q.options.find((o) => o.id !== right)!.id];
        }),
      );
      const res = await post("/api/quiz/fixture-basics/alpha", student.cookie, { answers, attemptId: quiz.attemptId });
      expect(res.json()).toMatchObject({ passed: false, correctCount: rightOnes.length });
      expect(
        res
          .json()
          .lessonsToRevisit.map((l: { title: string }) => l.title)
          .sort(),
      ).toEqual(["Lesson alpha-one", "Lesson alpha-two"]);
      return;
    }
    throw new Error("no suitable draw in 20 tries");
  });

  it("fails at 60% naming lessons only, then passes at 80% with explanations, keeping the best score and unlocking the next module", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const failed = await takeAssessment(t.app, student.cookie, "fixture-basics", "alpha", 3);
    const fail = failed.result;
    // The lessons to revisit are those behind every drawn question (the draw is random), so they
    // never tell which questions were answered wrongly.
    const lessonOf = questionLessons("fixture-basics", "alpha");
    const drawn = new Set(failed.quiz.questions.map((q) => `Lesson ${lessonOf.get(q.id)}`));
    expect(fail).toMatchObject({
      score: 60,
      correctCount: 3,
      incorrectCount: 2,
      total: 5,
      passed: false,
      passMark: 80,
      recorded: true,
      review: [],
    });
    expect(fail.lessonsToRevisit.map((l) => l.title).sort()).toEqual([...drawn].sort());
    expect(JSON.stringify(fail)).not.toMatch(/correctAnswer|explanation/);
    expect((await get("/api/courses/fixture-basics/lessons/beta-one", student.cookie)).statusCode).toBe(403);

    const { quiz, result: pass } = await takeAssessment(t.app, student.cookie, "fixture-basics", "alpha", 4);
    expect(pass).toMatchObject({ score: 80, correctCount: 4, passed: true, bestScore: 80, lessonsToRevisit: [] });
    const first = nth(quiz.questions, 0).id;
    expect(pass.review[0]).toEqual({
      questionId: first,
      correct: true,
      correctAnswer: answerKey("fixture-basics", "alpha").get(first),
      explanation: expect.stringContaining("is right"),
    });

    // A worse retake keeps the best score.
    await takeAssessment(t.app, student.cookie, "fixture-basics", "alpha", 2);
    const progress = (await get("/api/progress/fixture-basics", student.cookie)).json();
    expect(progress.quizScores.alpha).toEqual({ score: 40, passed: true, attempts: 3, bestScore: 80 });
    expect(progress.completedModules).toEqual(["alpha"]);
    // A graded quiz starts the course as a completed lesson does: its progress record exists.
    expect(progress.createdAt).toEqual(expect.any(String));
    expect((await get("/api/courses/fixture-basics/lessons/beta-one", student.cookie)).statusCode).toBe(200);
    const detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(detail.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "in-progress", "locked"]);
  });

  it("fails below 80% and passes at 80% or more", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-other"] });
    const r75 = (await takeAssessment(t.app, student.cookie, "fixture-other", "delta", 6)).result;
    expect(r75).toMatchObject({ score: 75, passed: false });
    const r88 = (await takeAssessment(t.app, student.cookie, "fixture-other", "delta", 7)).result;
    expect(r88).toMatchObject({ score: 88, passed: true });
  });

  it("completes the whole course, then allows PUT progress with the server's time", async () => {
    const student = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    await completeCourse(t.app, student.cookie, "fixture-basics");
    const detail = (await get("/api/courses/fixture-basics", student.cookie)).json();
    expect(detail.allModulesComplete).toBe(true);
    expect(detail.courseComplete).toBe(true);
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
  it("loses no write when the same learner completes lessons in parallel, and grades an attempt once", async () => {
    const racer = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    const url = "/api/quiz/fixture-basics/alpha";
    const quiz = (await start(url, racer.cookie)).json();
    const answers = answersFor(quiz, answerKey("fixture-basics", "alpha"), 5);
    const results = await Promise.all([
      post("/api/progress/fixture-basics/lessons/alpha-one/complete", racer.cookie),
      post("/api/progress/fixture-basics/lessons/alpha-two/complete", racer.cookie),
      post("/api/progress/fixture-basics/lessons/alpha-one/complete", racer.cookie),
      post(url, racer.cookie, { answers }),
      post(url, racer.cookie, { answers }),
      post(url, racer.cookie, { answers }),
    ]);
    expect(results.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(
      results
        .slice(3)
        .map((r) => r.statusCode)
        .sort(),
    ).toEqual([200, 409, 409]);
    const progress = (await get("/api/progress/fixture-basics", racer.cookie)).json();
    expect([...progress.completedLessons].sort()).toEqual(["alpha-one", "alpha-two"]);
    expect(progress.quizScores.alpha.attempts).toBe(1);
    expect(progress.quizScores.alpha.bestScore).toBe(100);
  });
});
