import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { rollUpItemResponses } from "#server/db/item-response-tally.ts";
import { formatLongDate } from "#shared/format.ts";
import type { Quiz } from "#shared/schemas/learning.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { completeCourse, takeAssessment } from "../setup/assessments.ts";
import { poppler } from "../setup/pdf-inspect.ts";
import {
  createTestApp,
  enrol,
  request,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";

/**
 * What a publish does to learners (docs/decisions/0055): a minor publish moves everyone on its line;
 * after a major one a learner in progress stays on the version they started until they move, and
 * moving keeps exactly the lesson completions and passed assessments the rules say.
 */

let t: TestApp;
let admin: TestUser;
const db = () => t.testDb.database.db;
const COURSE = "fixture-basics";
const studio = (path: string, course = COURSE) => `/api/studio/courses/${course}${path}`;
type Question = { id: string; correctAnswer: string; options: { id: string }[] };

async function publishWith(
  change: (doc: CourseDocument) => void,
  kind: "minor" | "major",
  note: string,
  course = COURSE,
) {
  const draft = (await request(t.app, "GET", studio("/draft", course), { cookie: admin.cookie })).json() as Draft;
  const doc = structuredClone(draft.document);
  change(doc);
  const saved = await request(t.app, "PUT", studio("/draft", course), {
    cookie: admin.cookie,
    payload: { baseRevision: draft.revision, document: doc },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const published = await request(t.app, "POST", studio("/publish", course), {
    cookie: admin.cookie,
    payload: { kind, note, baseRevision: (saved.json() as Draft).revision },
  });
  expect(published.statusCode, published.body).toBe(200);
  return published.json() as { version: number; line: number; publishedAt: string };
}

const page = async (user: TestUser) => {
  const res = await request(t.app, "GET", `/api/courses/${COURSE}`, { cookie: user.cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const moveToLatest = (user: TestUser | null) =>
  request(t.app, "POST", `/api/courses/${COURSE}/move-to-latest`, user ? { cookie: user.cookie } : {});
const rowsOf = async (userId: string) => ({
  lessons: (await db().selectFrom("lessonCompletion").select("lessonId").where("userId", "=", userId).execute()).length,
  attempts: (await db().selectFrom("quizAttempt").select("id").where("userId", "=", userId).execute()).length,
});
const alphaOne = (doc: CourseDocument) => {
  const lesson = doc.modules.find((m) => m.id === "alpha")?.lessons[0];
  if (!lesson) throw new Error("no alpha-one");
  return lesson;
};

let inProgress: TestUser;
let finished: TestUser;
let unstarted: TestUser;
let certificateId: string;
let v1At: string;
let v1Hours: number | null;

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "pdf-"));
  const file = join(dir, "certificate.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  [inProgress, finished, unstarted] = [await signUpUser(t.app), await signUpUser(t.app), await signUpUser(t.app)];
  for (const user of [inProgress, finished, unstarted]) await enrol(t, user, COURSE);
  // In progress: modules alpha and beta done (lessons and quizzes), gamma and the exam not.
  for (const lesson of ["alpha-one", "alpha-two"])
    await request(t.app, "POST", `/api/progress/${COURSE}/lessons/${lesson}/complete`, { cookie: inProgress.cookie });
  expect((await takeAssessment(t.app, inProgress.cookie, COURSE, "alpha")).result.passed).toBe(true);
  for (const lesson of ["beta-one", "beta-two"])
    await request(t.app, "POST", `/api/progress/${COURSE}/lessons/${lesson}/complete`, { cookie: inProgress.cookie });
  expect((await takeAssessment(t.app, inProgress.cookie, COURSE, "beta")).result.passed).toBe(true);
  // Finished on version 1, with a certificate.
  await completeCourse(t.app, finished.cookie, COURSE);
  const issued = await request(t.app, "POST", "/api/certificate", {
    cookie: finished.cookie,
    payload: { courseId: COURSE },
  });
  expect(issued.statusCode, issued.body).toBe(200);
  certificateId = issued.json().certificateId;
  v1At = (
    await db()
      .selectFrom("courseVersion")
      .select("publishedAt")
      .where("courseId", "=", COURSE)
      .where("version", "=", 1)
      .executeTakeFirstOrThrow()
  ).publishedAt;
  v1Hours = (await page(finished)).studyHours;
});
afterAll(async () => t?.close());

describe(`learners across versions (${testEngine})`, () => {
  it("minor moves everyone; major keeps a learner in progress on their version until they move, and moving keeps what the rules say", async () => {
    // Minor (version 2): everyone is on it at once, and nothing recorded changes.
    const before = await rowsOf(inProgress.id);
    const minor = await publishWith(
      (doc) => {
        alphaOne(doc).body = alphaOne(doc).body.replace("This is the body", "This is the clearer body");
      },
      "minor",
      "Clearer wording",
    );
    expect(minor).toMatchObject({ version: 2, line: 1 });
    for (const user of [inProgress, finished, unstarted]) {
      const p = await page(user);
      expect(p).toMatchObject({ version: 2, latestVersion: 2, newer: [], move: null });
      const lesson = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: user.cookie });
      expect(lesson.json().html).toContain("clearer body");
    }
    const p2 = await page(inProgress);
    expect(p2.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "complete", "in-progress"]);
    expect(await rowsOf(inProgress.id)).toEqual(before);

    // Major (version 3): beta's first question re-keyed, a new lesson in gamma.
    const major = await publishWith(
      (doc) => {
        const beta = doc.modules.find((m) => m.id === "beta");
        const q = ((beta?.quiz?.questions ?? []) as Question[])[0];
        if (!q) throw new Error("no question");
        q.correctAnswer = q.options.find((o) => o.id !== q.correctAnswer)?.id ?? "b";
        const gamma = doc.modules.find((m) => m.id === "gamma");
        const first = gamma?.lessons[0];
        if (!gamma || !first) throw new Error("no gamma");
        doc.course.learningOutcomes = ["Explain the basics", "Apply the basics", "Teach the basics"];
        doc.course.studyHours = 12;
        gamma.lessons.push({
          ...structuredClone(first),
          id: "gamma-two",
          meta: { ...first.meta, title: "Lesson gamma-two" },
        });
      },
      "major",
      "Beta's quiz re-keyed; a new lesson in gamma",
    );
    expect(major).toMatchObject({ version: 3, line: 3 });

    // A learner who had recorded nothing is on version 3; so is a new enrolment.
    const late = await signUpUser(t.app);
    await enrol(t, late, COURSE);
    for (const user of [unstarted, late]) expect(await page(user)).toMatchObject({ version: 3, move: null });
    // A visitor sees version 3.
    expect((await request(t.app, "GET", `/api/courses/${COURSE}`)).json()).toMatchObject({ version: 3, move: null });

    // The learner in progress stays on version 2 and is told what 3 changes and what moving keeps.
    const stayed = await page(inProgress);
    expect(stayed).toMatchObject({
      version: 2,
      latestVersion: 3,
      newer: [{ version: 3, note: "Beta's quiz re-keyed; a new lesson in gamma", publishedAt: major.publishedAt }],
      move: {
        keeps: [
          'Lesson "Lesson alpha-one"',
          'Lesson "Lesson alpha-two"',
          'Lesson "Lesson beta-one"',
          'Lesson "Lesson beta-two"',
          'The quiz of "Module Alpha"',
        ],
        redo: ['The quiz of "Module Beta"'],
        newLessons: ["Lesson gamma-two"],
      },
    });
    expect(stayed.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "complete", "in-progress"]);
    // My Learning counts each learner on their own version, as their course page and progress do.
    const lessonsOf = (p: { modules: { lessons: unknown[] }[] }) => p.modules.reduce((n, m) => n + m.lessons.length, 0);
    const v2Lessons = lessonsOf(stayed);
    expect(lessonsOf(await page(late))).toBe(v2Lessons + 1);
    const myLearning = async (user: TestUser) => {
      const rows = (await request(t.app, "GET", "/api/my-learning", { cookie: user.cookie })).json() as {
        courseId: string;
        percent: number;
        lessonsDone: number;
        lessonCount: number;
      }[];
      const row = rows.find((r) => r.courseId === COURSE);
      const progress = (await request(t.app, "GET", `/api/progress/${COURSE}`, { cookie: user.cookie })).json();
      expect(row?.percent).toBe(progress.percent);
      return { lessonsDone: row?.lessonsDone, lessonCount: row?.lessonCount };
    };
    expect(await myLearning(inProgress)).toEqual({ lessonsDone: 4, lessonCount: v2Lessons });
    expect(await myLearning(late)).toEqual({ lessonsDone: 0, lessonCount: v2Lessons + 1 });
    // The funnel counts learners on every version; ?version= only those on that version's line.
    const today = new Date().toISOString().slice(0, 10);
    const funnel = async (version?: number) => {
      const res = await request(
        t.app,
        "GET",
        `/api/admin/analytics/funnel?courseId=${COURSE}&from=${today}&to=${today}${version ? `&version=${version}` : ""}`,
        { cookie: admin.cookie },
      );
      if (res.statusCode !== 200) return res.statusCode;
      const steps = (res.json() as { steps: { key: string; count: number }[] }).steps;
      return Object.fromEntries(
        steps.filter((s) => ["enrolled", "first-lesson"].includes(s.key)).map((s) => [s.key, s.count]),
      );
    };
    expect(await funnel()).toEqual({ enrolled: 4, "first-lesson": 2 });
    expect(await funnel(2)).toEqual({ enrolled: 2, "first-lesson": 2 });
    expect(await funnel(3)).toEqual({ enrolled: 2, "first-lesson": 0 });
    expect(await funnel(9)).toBe(404);

    // Version 2 is what they are served: no gamma-two, and the exam's and quizzes' keys of version 2.
    expect(
      (await request(t.app, "GET", `/api/courses/${COURSE}/lessons/gamma-two`, { cookie: inProgress.cookie }))
        .statusCode,
    ).toBe(404);
    expect((await request(t.app, "GET", `/api/progress/${COURSE}`, { cookie: inProgress.cookie })).statusCode).toBe(
      200,
    );
    const beta = await takeAssessment(t.app, inProgress.cookie, COURSE, "beta");
    expect(beta.result.passed).toBe(true);
    const retaken = await db()
      .selectFrom("quizAttempt")
      .select("courseVersion")
      .where("userId", "=", inProgress.id)
      .where("moduleId", "=", "beta")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(retaken.courseVersion).toBe(2);

    // Who may move: a visitor 401, a learner not enrolled 403, an unknown course 404.
    expect((await moveToLatest(null)).statusCode).toBe(401);
    const stranger = await signUpUser(t.app);
    expect((await moveToLatest(stranger)).statusCode).toBe(403);
    expect(
      (await request(t.app, "POST", "/api/courses/no-such-course/move-to-latest", { cookie: inProgress.cookie }))
        .statusCode,
    ).toBe(404);

    // Moving (a bodiless POST, no content type), twice: one move.
    const recorded = await rowsOf(inProgress.id);
    const moved = await moveToLatest(inProgress);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ version: 3, latestVersion: 3, moved: true });
    expect((await moveToLatest(inProgress)).json()).toEqual({ version: 3, latestVersion: 3, moved: false });
    const after = await page(inProgress);
    expect(after).toMatchObject({ version: 3, latestVersion: 3, newer: [], move: null });
    // Alpha carries over whole; beta's lessons carry, its quiz is to redo; gamma has its new lesson.
    expect(after.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "in-progress", "locked"]);
    const done = after.modules.flatMap((m: { lessons: { id: string; completed: boolean }[] }) =>
      m.lessons.filter((l) => l.completed).map((l) => l.id),
    );
    expect(done).toEqual(["alpha-one", "alpha-two", "beta-one", "beta-two"]);
    expect(after.modules[0].quiz.passed).toBe(true);
    expect(after.modules[1].quiz).toMatchObject({ passed: false, bestScore: null });
    expect(after.missing).toEqual(["2 lessons", 'the quiz of "Module Beta"', "the final exam"]);
    // Nothing recorded was lost.
    expect(await rowsOf(inProgress.id)).toEqual(recorded);
    expect(await myLearning(inProgress)).toEqual({ lessonsDone: 4, lessonCount: v2Lessons + 1 });

    // Beta's quiz on version 3 takes version 3's key.
    const quiz = (
      await request(t.app, "POST", `/api/quiz/${COURSE}/beta/attempt`, { cookie: inProgress.cookie })
    ).json() as Quiz;
    const v3 = (await request(t.app, "GET", studio("/versions/3"), { cookie: admin.cookie })).json() as {
      document: CourseDocument;
    };
    const key = new Map(
      ((v3.document.modules.find((m) => m.id === "beta")?.quiz?.questions ?? []) as Question[]).map((q) => [
        q.id,
        q.correctAnswer,
      ]),
    );
    const answers = Object.fromEntries(quiz.questions.map((q) => [q.id, key.get(q.id) as string]));
    const graded = await request(t.app, "POST", `/api/quiz/${COURSE}/beta`, {
      cookie: inProgress.cookie,
      payload: { answers, attemptId: quiz.attemptId },
    });
    expect(graded.json()).toMatchObject({ passed: true, score: 100 });
    expect((await page(inProgress)).modules[1].state).toBe("complete");

    // Item statistics are per item and version: each version's bank, and only its attempts.
    const betaResponses = async (version?: number) => {
      const res = await request(
        t.app,
        "GET",
        `/api/admin/item-statistics?courseId=${COURSE}${version ? `&version=${version}` : ""}`,
        { cookie: admin.cookie },
      );
      expect(res.statusCode, res.body).toBe(200);
      const stats = res.json() as {
        version: number;
        versions: number[];
        items: {
          assessment: string;
          questionId: string;
          responses: number;
          options: { id: string; correct: boolean }[];
        }[];
      };
      const beta = stats.items.filter((i) => i.assessment === "beta");
      const q1Key = beta.find((i) => i.questionId === "q1")?.options.find((o) => o.correct)?.id;
      return {
        version: stats.version,
        versions: stats.versions,
        responses: beta.reduce((n, i) => n + i.responses, 0),
        q1Key,
      };
    };
    const perVersion = async () => ({
      latest: await betaResponses(),
      v1: await betaResponses(1),
      v2: await betaResponses(2),
      v3: await betaResponses(3),
    });
    // Version 1: two attempts (in progress, finished) of 5 questions; 2: the retake; 3: the attempt after the move.
    const expected = {
      latest: { version: 3, versions: [1, 2, 3], responses: 5, q1Key: "b" },
      v1: { version: 1, versions: [1, 2, 3], responses: 10, q1Key: "a" },
      v2: { version: 2, versions: [1, 2, 3], responses: 5, q1Key: "a" },
      v3: { version: 3, versions: [1, 2, 3], responses: 5, q1Key: "b" },
    };
    expect(await perVersion()).toEqual(expected);
    // The same once the rollup has moved the attempts into the running sums.
    expect(await rollUpItemResponses(db())).toBeGreaterThan(0);
    expect(await perVersion()).toEqual(expected);
    expect(
      (await request(t.app, "GET", `/api/admin/item-statistics?courseId=${COURSE}&version=9`, { cookie: admin.cookie }))
        .statusCode,
    ).toBe(404);

    // The assessments' figures per version: beta's quiz was taken twice on version 1, once on 2, once on 3.
    const betaAttempts = async (query: string) => {
      const res = await request(t.app, "GET", `/api/admin/analytics/assessments?from=${today}&to=${today}${query}`, {
        cookie: admin.cookie,
      });
      if (res.statusCode !== 200) return res.statusCode;
      const items = (res.json() as { items: { courseId: string; assessment: string; attempts: number }[] }).items;
      return {
        courses: [...new Set(items.map((i) => i.courseId))],
        beta: items.find((i) => i.courseId === COURSE && i.assessment === "beta")?.attempts,
      };
    };
    expect(await betaAttempts("")).toMatchObject({ beta: 4 });
    expect(await betaAttempts(`&courseId=${COURSE}`)).toEqual({ courses: [COURSE], beta: 4 });
    expect(await betaAttempts(`&courseId=${COURSE}&version=1`)).toEqual({ courses: [COURSE], beta: 2 });
    expect(await betaAttempts(`&courseId=${COURSE}&version=2`)).toEqual({ courses: [COURSE], beta: 1 });
    expect(await betaAttempts(`&courseId=${COURSE}&version=3`)).toEqual({ courses: [COURSE], beta: 1 });
    expect(await betaAttempts(`&courseId=${COURSE}&version=9`)).toBe(404);
    expect(await betaAttempts("&version=1")).toBe(400);
    // The CSV exports take the same filter and say it in their names.
    const csv = async (table: string, version?: number) => {
      const res = await request(
        t.app,
        "GET",
        `/api/admin/analytics/export.csv?table=${table}&from=${today}&to=${today}&courseId=${COURSE}${version ? `&version=${version}` : ""}`,
        { cookie: admin.cookie },
      );
      return { status: res.statusCode, name: String(res.headers["content-disposition"] ?? ""), body: res.body };
    };
    const betaRow = (body: string) => body.split("\r\n").find((line) => line.startsWith(`${COURSE},beta,`));
    const v2Csv = await csv("assessments", 2);
    expect(v2Csv.name).toContain(`analytics-assessments-${COURSE}-v2-`);
    expect(betaRow(v2Csv.body)?.split(",")[3]).toBe("1");
    expect(betaRow((await csv("assessments")).body)?.split(",")[3]).toBe("4");
    // Version 3's line now holds the learner who moved, the one who had started nothing and the late one.
    expect((await csv("funnel", 3)).body).toMatch(/\r\nEnrolled,3,/);
    expect((await csv("funnel")).body).toMatch(/\r\nEnrolled,4,/);
    expect((await csv("sales-by-course", 2)).status).toBe(400);

    // The learner who finished stays on version 2 and keeps the certificate, which still cites version 1.
    expect(await page(finished)).toMatchObject({
      version: 2,
      latestVersion: 3,
      courseComplete: true,
      isCompleted: true,
    });
    const verified = await request(t.app, "GET", `/api/verify/${certificateId}`);
    expect(verified.json()).toMatchObject({
      status: "valid",
      courseVersion: {
        version: 1,
        publishedAt: v1At,
        learningOutcomes: ["Explain the basics", "Apply the basics"],
        studyHours: v1Hours,
      },
    });
    // The PDF and the Open Badges credential say so too; a new certificate on version 3 would say 3.
    const pdf = await request(t.app, "GET", `/api/certificates/${certificateId}/pdf`, { cookie: finished.cookie });
    expect(pdf.statusCode).toBe(200);
    if (poppler) expect(pdfText(pdf.rawPayload)).toContain(`Course version 1, published ${formatLongDate(v1At)}`);
    const credential = await request(t.app, "GET", `/api/certificates/${certificateId}/credential`, {
      cookie: finished.cookie,
    });
    const achievement = JSON.parse(credential.body).credentialSubject.achievement;
    expect(achievement.version).toBe("1");
    expect(achievement.criteria.narrative).toContain(`Course version 1, published ${formatLongDate(v1At)}.`);
    expect(achievement.criteria.narrative).toContain("Learning outcomes: Explain the basics; Apply the basics.");
    expect(achievement.criteria.narrative).not.toContain("Teach the basics");
    const check = await request(t.app, "GET", `/api/verify/${certificateId}/credential`);
    expect(check.json()).toMatchObject({ signatureVerified: true, revoked: false });
    expect((await moveToLatest(finished)).json()).toMatchObject({ moved: true });
    expect((await request(t.app, "GET", `/api/verify/${certificateId}`)).json()).toMatchObject({
      status: "valid",
      courseVersion: { version: 1 },
    });

    // Recertification uses the current version's exam: version 4 re-keys every exam question, and the
    // holder of the version 1 certificate passes by version 4's keys.
    const v4 = await publishWith(
      (doc) => {
        for (const q of ((doc.exam as { questions?: Question[] } | null)?.questions ?? []) as Question[])
          q.correctAnswer = q.options.find((o) => o.id !== q.correctAnswer)?.id ?? "b";
      },
      "major",
      "Exam re-keyed",
    );
    expect(v4.version).toBe(4);
    const v4Exam = (await request(t.app, "GET", studio("/versions/4"), { cookie: admin.cookie })).json() as {
      document: CourseDocument;
    };
    const examKey = new Map(
      ((v4Exam.document.exam as { questions: Question[] }).questions ?? []).map((q) => [q.id, q.correctAnswer]),
    );
    await db()
      .updateTable("certificate")
      .set({ expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() })
      .where("certificateId", "=", certificateId)
      .execute();
    const recert = (
      await request(t.app, "POST", `/api/recertification/${COURSE}/attempt`, { cookie: finished.cookie })
    ).json() as Quiz;
    expect(recert.questions.length).toBeGreaterThan(0);
    const recertified = await request(t.app, "POST", `/api/recertification/${COURSE}`, {
      cookie: finished.cookie,
      payload: {
        attemptId: recert.attemptId,
        answers: Object.fromEntries(recert.questions.map((q) => [q.id, examKey.get(q.id) as string])),
      },
    });
    expect(recertified.json()).toMatchObject({ passed: true, score: 100 });
    const recertRow = await db()
      .selectFrom("quizAttempt")
      .select("courseVersion")
      .where("userId", "=", finished.id)
      .where("moduleId", "=", "#recertification")
      .executeTakeFirstOrThrow();
    expect(recertRow.courseVersion).toBe(4);
  });

  it("refuses a move for an account being erased (the erasure lock), changing nothing", async () => {
    // On a course of its own, so the other test's counts of fixture-basics' learners stay exact.
    const user = await signUpUser(t.app);
    await enrol(t, user, "fixture-other");
    await db().updateTable("enrollment").set({ courseLine: 0 }).where("userId", "=", user.id).execute();
    await db().updateTable("user").set({ erasedAt: new Date().toISOString() }).where("id", "=", user.id).execute();
    const refused = await request(t.app, "POST", "/api/courses/fixture-other/move-to-latest", { cookie: user.cookie });
    expect(refused.statusCode).toBe(401);
    const row = await db()
      .selectFrom("enrollment")
      .select("courseLine")
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.courseLine).toBe(0);
  });
});

describe.skipIf(testEngine !== "postgres")("two instances on one PostgreSQL", () => {
  let b: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 3 });
    b = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await database?.close();
  });

  it("the other instance serves a publish within a second", async () => {
    const OTHER = "fixture-other";
    const url = `/api/courses/${OTHER}`;
    const before = (await b.inject({ method: "GET", url })).json().version;
    const published = await publishWith(
      (doc) => {
        const lesson = doc.modules[0]?.lessons[0];
        if (!lesson) throw new Error("no lesson");
        lesson.body = `${lesson.body}\n\nOne more sentence.`;
      },
      "minor",
      "One more sentence",
      OTHER,
    );
    expect(published.version).toBeGreaterThan(before);
    await expect
      .poll(async () => (await b.inject({ method: "GET", url })).json().version, {
        timeout: 1_000,
        interval: 50,
      })
      .toBe(published.version);
  });
});
