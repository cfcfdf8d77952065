import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Quiz } from "#shared/schemas/learning.ts";
import { answerKey, answersFor, completeCourse, questionLessons, takeAssessment } from "../setup/assessments.ts";
import { must, nth } from "../setup/must.ts";
import {
  createTestApp,
  enrol,
  request,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "assessor@academy.example" } });
  admin = await signUpUser(t.app, { email: "assessor@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

const get = (url: string, cookie?: string) => request(t.app, "GET", url, { cookie });
/** Starts (or resumes) an attempt: a bodiless POST. */
const start = (url: string, cookie?: string) => request(t.app, "POST", `${url}/attempt`, { cookie });
const post = (url: string, cookie: string | undefined, payload: unknown) =>
  request(t.app, "POST", url, { cookie, payload });
const db = () => t.testDb.database.db;

async function learnerIn(courseId = "fixture-basics") {
  const user = await signUpUser(t.app);
  await enrol(t, user, courseId);
  return user;
}

/** Every lesson, quiz and module of fixture-basics done, so the final exam is open. */
async function readyForExam(user: TestUser) {
  for (const id of ["alpha-one", "alpha-two"])
    await post(`/api/progress/fixture-basics/lessons/${id}/complete`, user.cookie, {});
  await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha");
  for (const id of ["beta-one", "beta-two"])
    await post(`/api/progress/fixture-basics/lessons/${id}/complete`, user.cookie, {});
  await takeAssessment(t.app, user.cookie, "fixture-basics", "beta");
  await post("/api/progress/fixture-basics/lessons/gamma-one/complete", user.cookie, {});
}

const ids = (quiz: Quiz) => quiz.questions.map((q) => q.id);
const optionOrders = (quiz: Quiz) => quiz.questions.map((q) => q.options.map((o) => o.id).join(""));

describe("draws made and kept by the server", () => {
  it("draws questions not seen yet while any remain: three attempts of 5 cover the bank of 15", async () => {
    const user = await learnerIn();
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { quiz, result } = await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha", 0);
      expect(result.passed).toBe(false);
      expect(quiz.questions).toHaveLength(5);
      seen.push(...ids(quiz));
    }
    expect(new Set(seen).size).toBe(15);
  });

  it("shuffles the option order, differently between attempts, and keeps it when the page is reloaded", async () => {
    const user = await learnerIn("fixture-other");
    const url = "/api/quiz/fixture-other/delta";
    const first = (await start(url, user.cookie)).json() as Quiz;
    const reloaded = (await get(url, user.cookie)).json() as Quiz;
    expect(reloaded.attemptId).toBe(first.attemptId);
    expect(reloaded.questions).toEqual(first.questions);
    await post(url, user.cookie, { answers: answersFor(first, answerKey("fixture-other", "delta"), 0) });
    const second = (await start(url, user.cookie)).json() as Quiz;
    expect(second.attemptId).not.toBe(first.attemptId);
    expect(optionOrders(second)).not.toEqual(optionOrders(first));
    expect([...optionOrders(first), ...optionOrders(second)].some((order) => order !== "abcd")).toBe(true);
  });

  it("grades exactly what was drawn: an answer to a question not drawn gets 400", async () => {
    const user = await learnerIn();
    const url = "/api/quiz/fixture-basics/alpha";
    const quiz = (await start(url, user.cookie)).json() as Quiz;
    const answers = answersFor(quiz, answerKey("fixture-basics", "alpha"), 5);
    const undrawn = [...answerKey("fixture-basics", "alpha").keys()].find((id) => !(id in answers))!;
    const swapped = { ...answers, [undrawn]: "a" };
    delete swapped[nth(quiz.questions, 0).id];
    const res = await post(url, user.cookie, { answers: swapped, attemptId: quiz.attemptId });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Question '${undrawn}' is not part of this attempt.`);
    expect((await post(url, user.cookie, { answers: { ...answers, [undrawn]: "a" } })).statusCode).toBe(400);
    const ok = await post(url, user.cookie, { answers, attemptId: quiz.attemptId });
    expect(ok.json()).toMatchObject({ score: 100, passed: true, total: 5 });
    // The attempt is closed: sending it again is refused.
    expect((await post(url, user.cookie, { answers, attemptId: quiz.attemptId })).statusCode).toBe(409);
  });

  it("starts an attempt only by a POST from the academy's own pages: a link on another site starts nothing", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const stored = async () =>
      Number(
        (
          await db()
            .selectFrom("assessmentAttempt")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("userId", "=", user.id)
            .where("assessmentId", "in", ["alpha", "#final-exam"])
            .executeTakeFirstOrThrow()
        ).n,
      );
    let expected = await stored();
    for (const url of ["/api/quiz/fixture-basics/alpha", "/api/exam/fixture-basics"]) {
      // A top-level navigation from another site: a GET carrying the session cookie (SameSite=Lax).
      const navigation = await t.app.inject({
        method: "GET",
        url,
        headers: { cookie: user.cookie, "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      });
      expect(navigation.statusCode, url).toBe(404);
      expect(navigation.json().message, url).toBe("No attempt is open. Start one first.");
      // A form on another site posting to the start.
      const forged = await t.app.inject({
        method: "POST",
        url: `${url}/attempt`,
        headers: { cookie: user.cookie, origin: "https://elsewhere.example" },
      });
      expect(forged.statusCode, url).toBe(403);
      expect(await stored(), url).toBe(expected);
      // From the academy's page: a bodiless POST starts it, and a reload (GET) reads the same attempt.
      const started = await start(url, user.cookie);
      expect(started.statusCode, url).toBe(200);
      const reread = await get(url, user.cookie);
      expect(reread.statusCode, url).toBe(200);
      expect((reread.json() as Quiz).attemptId, url).toBe((started.json() as Quiz).attemptId);
      expect(await stored(), url).toBe(++expected);
    }
  });

  it("opens one attempt when the first requests race", async () => {
    const user = await learnerIn();
    const started = await Promise.all([1, 2, 3].map(() => start("/api/quiz/fixture-basics/alpha", user.cookie)));
    expect(new Set(started.map((r) => r.json().attemptId)).size).toBe(1);
  });

  it("gives visitors a signed preview draw with the same rules, and records nothing", async () => {
    const url = "/api/quiz/fixture-basics/alpha";
    const quiz = (await start(url)).json() as Quiz;
    expect(quiz).toMatchObject({ recorded: false, attemptsLeft: null });
    const answers = answersFor(quiz, answerKey("fixture-basics", "alpha"), 5);
    expect((await post(url, undefined, { answers })).statusCode).toBe(400);
    const forged = `${quiz.attemptId.slice(0, -4)}AAAA`;
    expect((await post(url, undefined, { answers, attemptId: forged })).statusCode).toBe(400);
    const undrawn = [...answerKey("fixture-basics", "alpha").keys()].find((id) => !(id in answers))!;
    expect(
      (await post(url, undefined, { answers: { ...answers, [undrawn]: "a" }, attemptId: quiz.attemptId })).statusCode,
    ).toBe(400);
    const res = await post(url, undefined, { answers, attemptId: quiz.attemptId });
    expect(res.json()).toMatchObject({ score: 100, passed: true, recorded: false });
    const other = (await start(url)).json() as Quiz;
    expect(other.attemptId).not.toBe(quiz.attemptId);
  });
});

describe("review", () => {
  it("after a fail: only the score and the lessons to revisit, never per-question correctness", async () => {
    const user = await learnerIn();
    const { result } = await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha", 3);
    expect(result).toMatchObject({ score: 60, passed: false, review: [] });
    expect(result.lessonsToRevisit.length).toBeGreaterThan(0);
    const text = JSON.stringify(result);
    expect(text).not.toMatch(/questionId|correctAnswer|explanation|"correct"/);
  });

  it("after a pass: every drawn question with its correct answer and explanation", async () => {
    const user = await learnerIn();
    const { quiz, result } = await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha", 4);
    expect(result.passed).toBe(true);
    const key = answerKey("fixture-basics", "alpha");
    expect(result.review.map((r) => r.questionId)).toEqual(ids(quiz));
    for (const r of result.review) {
      expect(r.correctAnswer).toBe(key.get(r.questionId));
      expect(r.explanation).toMatch(/is right/);
    }
    expect(result.review.filter((r) => !r.correct)).toHaveLength(1);
  });
});

describe("attempt rules", () => {
  it("refuses a fourth attempt inside the cooldown with 429 and the time it opens; an admin's grant allows one more", async () => {
    const user = await learnerIn();
    const url = "/api/quiz/fixture-basics/alpha";
    const left: (number | null)[] = [];
    for (let i = 0; i < 3; i++)
      left.push((await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha", 0)).result.attemptsLeft);
    expect(left).toEqual([2, 1, 0]);
    const last = await db()
      .selectFrom("assessmentAttempt")
      .select("submittedAt")
      .where("userId", "=", user.id)
      .orderBy("submittedAt", "desc")
      .executeTakeFirstOrThrow();
    const opens = new Date(new Date(last.submittedAt!).getTime() + 24 * 3_600_000).toISOString();
    const refused = await start(url, user.cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/^You have used your 3 attempts/),
      nextAttemptAt: opens,
    });

    expect(
      (
        await post(`/api/admin/learners/${user.id}/attempt-grants`, user.cookie, {
          courseId: "fixture-basics",
          assessment: "alpha",
        })
      ).statusCode,
    ).toBe(403);
    const grant = await post(`/api/admin/learners/${user.id}/attempt-grants`, admin.cookie, {
      courseId: "fixture-basics",
      assessment: "alpha",
    });
    expect(grant.statusCode).toBe(200);
    const reopened = await start(url, user.cookie);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().attemptsLeft).toBe(1);
    const audit = await db().selectFrom("auditLog").selectAll().where("action", "=", "attempt.grant").execute();
    expect(audit.map((a) => a.target)).toContain(user.email);

    const learners = (await get(`/api/admin/learners?q=${encodeURIComponent(user.email)}`, admin.cookie)).json();
    expect(learners.items[0].attempts).toContainEqual({
      courseId: "fixture-basics",
      assessment: "alpha",
      title: "Quiz alpha",
      attempts: 3,
      bestScore: 0,
      passed: false,
      attemptsLeft: 1,
      nextAttemptAt: null,
    });
  });
});

describe("completion", () => {
  it("refuses the certificate (409) until the lessons, the quizzes and the final exam are all done", async () => {
    const user = await learnerIn();
    const issue = () => post("/api/certificate", user.cookie, { courseId: "fixture-basics" });
    // Passing the quizzes without reading a lesson is not completion.
    await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha");
    await takeAssessment(t.app, user.cookie, "fixture-basics", "beta");
    let detail = (await get("/api/courses/fixture-basics", user.cookie)).json();
    expect(detail).toMatchObject({ courseComplete: false, percent: 20, missing: ["5 lessons", "the final exam"] });
    let res = await issue();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^Complete 5 lessons and the final exam before requesting your certificate/);
    expect((await start("/api/exam/fixture-basics", user.cookie)).statusCode).toBe(403);

    for (const id of ["alpha-one", "alpha-two", "beta-one", "beta-two", "gamma-one"])
      await post(`/api/progress/fixture-basics/lessons/${id}/complete`, user.cookie, {});
    detail = (await get("/api/courses/fixture-basics", user.cookie)).json();
    expect(detail).toMatchObject({ allModulesComplete: true, courseComplete: false, percent: 90 });
    expect(detail.exam).toMatchObject({ accessible: true, passed: false, questionCount: 5, timeLimitMinutes: 30 });
    res = await issue();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^Complete the final exam before requesting your certificate/);

    expect((await takeAssessment(t.app, user.cookie, "fixture-basics", "exam", 3)).result.passed).toBe(false);
    expect((await issue()).statusCode).toBe(409);
    expect((await takeAssessment(t.app, user.cookie, "fixture-basics", "exam")).result.passed).toBe(true);
    detail = (await get("/api/courses/fixture-basics", user.cookie)).json();
    expect(detail).toMatchObject({ courseComplete: true, percent: 100, missing: [] });
    expect((await issue()).statusCode).toBe(200);
  });

  it("counts a course without a final exam complete with its lessons and quizzes", async () => {
    const user = await learnerIn("fixture-other");
    await completeCourse(t.app, user.cookie, "fixture-other");
    expect((await start("/api/exam/fixture-other", user.cookie)).statusCode).toBe(404);
    expect((await post("/api/certificate", user.cookie, { courseId: "fixture-other" })).statusCode).toBe(200);
  });
});

describe("the exam blueprint", () => {
  it("draws every exam attempt by the blueprint: 2 alpha, 2 beta and 1 gamma items, every time", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const lessons = questionLessons("fixture-basics", "exam");
    const moduleOf = (id: string) => must(lessons.get(id), `the lesson of ${id}`).split("-")[0] ?? "";
    for (let i = 0; i < 3; i++) {
      const { quiz, result } = await takeAssessment(t.app, user.cookie, "fixture-basics", "exam", 0);
      expect(result.passed).toBe(false);
      const counts = Object.fromEntries(["alpha", "beta", "gamma"].map((m) => [m, 0]));
      for (const q of quiz.questions) counts[moduleOf(q.id)] = (counts[moduleOf(q.id)] ?? 0) + 1;
      expect(counts).toEqual({ alpha: 2, beta: 2, gamma: 1 });
    }
  });
});

describe("timed final exam", () => {
  /** Moves the open exam attempt's clock back, as if it had started `minutes` ago. */
  async function startedMinutesAgo(user: TestUser, minutes: number, limitMinutes: number) {
    const startedAt = new Date(Date.now() - minutes * 60_000);
    await db()
      .updateTable("assessmentAttempt")
      .set({
        startedAt: startedAt.toISOString(),
        deadlineAt: new Date(startedAt.getTime() + limitMinutes * 60_000).toISOString(),
      })
      .where("userId", "=", user.id)
      .where("submittedAt", "is", null)
      .execute();
  }

  it("refuses an exam submitted after its time limit plus the grace period, and counts it as a failed attempt", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const quiz = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(quiz).toMatchObject({ kind: "exam", moduleId: null, timeLimitMinutes: 30, attemptsLeft: 3 });
    expect(new Date(quiz.deadlineAt!).getTime() - new Date(quiz.startedAt).getTime()).toBe(30 * 60_000);
    await startedMinutesAgo(user, 32, 30);
    const answers = answersFor(quiz, answerKey("fixture-basics", "exam"), 5);
    const late = await post("/api/exam/fixture-basics", user.cookie, { answers, attemptId: quiz.attemptId });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/^Time is up/);
    const next = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(next.attemptId).not.toBe(quiz.attemptId);
    expect(next.previous).toMatchObject({ score: 0, attempts: 1, passed: false });
    expect(next.attemptsLeft).toBe(2);
  });

  it("accepts a submission inside the grace period", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const quiz = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    await startedMinutesAgo(user, 30.5, 30);
    const answers = answersFor(quiz, answerKey("fixture-basics", "exam"), 5);
    const res = await post("/api/exam/fixture-basics", user.cookie, { answers, attemptId: quiz.attemptId });
    expect(res.statusCode).toBe(200);
    expect(res.json().passed).toBe(true);
  });

  it("tells the exam's rules before Start, with the learner's own time limit, and draws nothing", async () => {
    const user = await learnerIn();
    expect((await get("/api/exam/fixture-basics/rules", user.cookie)).statusCode).toBe(403);
    expect((await get("/api/exam/fixture-basics/rules")).statusCode).toBe(401);
    expect((await get("/api/exam/fixture-other/rules", user.cookie)).statusCode).toBe(404);
    await readyForExam(user);
    const rules = () => get("/api/exam/fixture-basics/rules", user.cookie).then((r) => r.json());
    expect(await rules()).toEqual({
      courseId: "fixture-basics",
      title: "Final exam",
      questionCount: 5,
      timeLimitMinutes: 30,
      timeMultiplier: 1,
      yourTimeLimitMinutes: 30,
      passMark: 80,
      maxAttempts: 3,
      attemptsLeft: 3,
      nextAttemptAt: null,
      inProgress: null,
      previous: null,
    });
    // Reading the rules starts nothing.
    const opened = () =>
      db()
        .selectFrom("assessmentAttempt")
        .select("id")
        .where("userId", "=", user.id)
        .where("assessmentId", "=", "#final-exam")
        .execute();
    expect(await opened()).toHaveLength(0);

    await request(t.app, "PUT", `/api/admin/learners/${user.id}/accommodation`, {
      cookie: admin.cookie,
      payload: { timeMultiplier: 1.5 },
    });
    expect(await rules()).toMatchObject({ timeLimitMinutes: 30, timeMultiplier: 1.5, yourTimeLimitMinutes: 45 });

    const quiz = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(await rules()).toMatchObject({ attemptsLeft: 3, inProgress: { deadlineAt: quiz.deadlineAt } });
    await post("/api/exam/fixture-basics", user.cookie, {
      answers: answersFor(quiz, answerKey("fixture-basics", "exam"), 0),
      attemptId: quiz.attemptId,
    });
    expect(await rules()).toMatchObject({
      attemptsLeft: 2,
      inProgress: null,
      previous: { score: 0, attempts: 1, passed: false },
    });
  });

  it("applies extra time given during a running attempt from the next attempt", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const accommodate = (timeMultiplier: number) =>
      request(t.app, "PUT", `/api/admin/learners/${user.id}/accommodation`, {
        cookie: admin.cookie,
        payload: { timeMultiplier },
      });
    const minutes = (q: Quiz) => (new Date(q.deadlineAt!).getTime() - new Date(q.startedAt).getTime()) / 60_000;
    const first = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(minutes(first)).toBe(30);
    await accommodate(2);
    // The running attempt keeps its deadline; the rules and the course page already state the next one's limit.
    const resumed = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(resumed.attemptId).toBe(first.attemptId);
    expect(resumed.deadlineAt).toBe(first.deadlineAt);
    const rules = (await get("/api/exam/fixture-basics/rules", user.cookie)).json();
    expect(rules).toMatchObject({ yourTimeLimitMinutes: 60, inProgress: { deadlineAt: first.deadlineAt } });
    expect((await get("/api/courses/fixture-basics", user.cookie)).json().exam.yourTimeLimitMinutes).toBe(60);
    await post("/api/exam/fixture-basics", user.cookie, {
      answers: answersFor(first, answerKey("fixture-basics", "exam"), 0),
      attemptId: first.attemptId,
    });
    const next = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(next.attemptId).not.toBe(first.attemptId);
    expect(minutes(next)).toBe(60);
  });

  it("gives a learner with a 1.5x accommodation the longer limit", async () => {
    const user = await learnerIn();
    await readyForExam(user);
    const set = await request(t.app, "PUT", `/api/admin/learners/${user.id}/accommodation`, {
      cookie: admin.cookie,
      payload: { timeMultiplier: 1.5 },
    });
    expect(set.json()).toEqual({ userId: user.id, timeMultiplier: 1.5 });
    const quiz = (await start("/api/exam/fixture-basics", user.cookie)).json() as Quiz;
    expect(new Date(quiz.deadlineAt!).getTime() - new Date(quiz.startedAt).getTime()).toBe(45 * 60_000);
    // 40 minutes in: past the standard limit, inside the learner's own.
    await startedMinutesAgo(user, 40, 45);
    const answers = answersFor(quiz, answerKey("fixture-basics", "exam"), 5);
    expect(
      (await post("/api/exam/fixture-basics", user.cookie, { answers, attemptId: quiz.attemptId })).statusCode,
    ).toBe(200);
    const learners = (await get(`/api/admin/learners?q=${encodeURIComponent(user.email)}`, admin.cookie)).json();
    expect(learners.items[0].timeMultiplier).toBe(1.5);
    // The course page's exam card states the learner's own limit; a visitor reads the written one.
    const card = async (cookie?: string) => (await get("/api/courses/fixture-basics", cookie)).json().exam;
    expect(await card(user.cookie)).toMatchObject({ timeLimitMinutes: 30, yourTimeLimitMinutes: 45 });
    expect(await card()).toMatchObject({ timeLimitMinutes: 30, yourTimeLimitMinutes: 30 });
    const audit = await db().selectFrom("auditLog").selectAll().where("action", "=", "accommodation.set").execute();
    expect(audit.map((a) => a.target)).toContain(user.email);
  });
});
