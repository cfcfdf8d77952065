import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItemStatistics } from "#shared/schemas/item-statistics.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
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
let instructor: TestUser;
let stranger: TestUser;
let learner: TestUser;
const COURSE = "fixture-basics";
const studio = (path = "") => `/api/studio/courses/${COURSE}${path}`;
type Lesson = CourseDocument["modules"][number]["lessons"][number];

const getDraft = async (user: TestUser) =>
  (await request(t.app, "GET", studio("/draft"), { cookie: user.cookie })).json() as Draft;
const lessonOf = (document: CourseDocument, lessonId: string) => {
  const lesson = document.modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId);
  if (!lesson) throw new Error(`no lesson ${lessonId}`);
  return lesson;
};
const putLesson = (user: TestUser, baseRevision: number, lesson: Lesson, media: unknown[] = []) =>
  request(t.app, "PUT", studio(`/lessons/${lesson.id}`), {
    cookie: user.cookie,
    payload: { baseRevision, lesson, media },
  });

async function withRole(role: "instructor") {
  const user = await signUpUser(t.app);
  const res = await request(t.app, "PUT", `/api/admin/learners/${user.id}/role`, {
    cookie: admin.cookie,
    payload: { role },
  });
  expect(res.statusCode).toBe(200);
  return user;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  instructor = await withRole("instructor");
  stranger = await withRole("instructor");
  learner = await signUpUser(t.app);
  await enrol(t, learner, COURSE);
  const assigned = await request(t.app, "POST", "/api/admin/course-staff", {
    cookie: admin.cookie,
    payload: { userId: instructor.id, courseId: COURSE, role: "instructor" },
  });
  expect(assigned.statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe("saving one lesson", () => {
  it("is for the course's authors only", async () => {
    const { document } = await getDraft(admin);
    const lesson = lessonOf(document, "alpha-one");
    expect((await putLesson({ ...learner, cookie: "" }, 0, lesson)).statusCode).toBe(401);
    expect((await putLesson(learner, 0, lesson)).statusCode).toBe(403);
    expect((await putLesson(stranger, 0, lesson)).statusCode).toBe(403);
    const upload = { name: "plate.png", data: Buffer.from("png").toString("base64") };
    for (const user of [learner, stranger])
      expect(
        (await request(t.app, "POST", studio("/media"), { cookie: user.cookie, payload: upload })).statusCode,
      ).toBe(403);
  });

  it("saves that lesson on its base revision, and a stale save gets 409 with the lesson as it is now, never overwriting it", async () => {
    const start = await getDraft(instructor);
    const base = lessonOf(start.document, "alpha-two");
    const mine = { ...base, body: `${base.body}\nA sentence the first author wrote.\n` };
    const first = await putLesson(instructor, start.revision, mine);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ revision: start.revision + 1, lesson: { body: mine.body }, problems: [] });

    // A second author still on the old revision: told of the first save, with the first author's text.
    const theirs = { ...base, body: `${base.body}\nA sentence the second author wrote.\n` };
    const stale = await putLesson(admin, start.revision, theirs);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ revision: start.revision + 1, lesson: { body: mine.body } });
    expect(stale.json().message).toMatch(/someone else saved/i);
    expect(lessonOf((await getDraft(admin)).document, "alpha-two").body).toBe(mine.body);

    // Choosing to keep both, on the revision the 409 named, lands.
    const both = { ...base, body: `${mine.body}A sentence the second author wrote.\n` };
    const resolved = await putLesson(admin, stale.json().revision, both);
    expect(resolved.statusCode).toBe(200);
    const after = await getDraft(instructor);
    expect(lessonOf(after.document, "alpha-two").body).toBe(both.body);
    // Only that lesson changed.
    expect(lessonOf(after.document, "alpha-one")).toEqual(lessonOf(start.document, "alpha-one"));
    expect(after.document.modules.map((m) => m.quiz)).toEqual(start.document.modules.map((m) => m.quiz));
  });

  it("refuses an unknown lesson (404), a changed id (422) and a malformed lesson (400)", async () => {
    const draft = await getDraft(instructor);
    const lesson = lessonOf(draft.document, "alpha-one");
    const unknown = await request(t.app, "PUT", studio("/lessons/no-such-lesson"), {
      cookie: instructor.cookie,
      payload: { baseRevision: draft.revision, lesson: { ...lesson, id: "no-such-lesson" } },
    });
    expect(unknown.statusCode).toBe(404);
    const renamed = await request(t.app, "PUT", studio("/lessons/alpha-one"), {
      cookie: instructor.cookie,
      payload: { baseRevision: draft.revision, lesson: { ...lesson, id: "alpha-renamed" } },
    });
    expect(renamed.statusCode).toBe(422);
    const bad = await request(t.app, "PUT", studio("/lessons/alpha-one"), {
      cookie: instructor.cookie,
      payload: { baseRevision: draft.revision, lesson: { ...lesson, format: "docx" } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(expect.any(String));
  });

  it("stores an uploaded figure for the draft, which the lesson's figure block may then use", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32" width="64" height="32"><rect width="64" height="32" fill="#09c"/></svg>';
    const uploaded = await request(t.app, "POST", studio("/media"), {
      cookie: instructor.cookie,
      payload: { name: "band.svg", data: Buffer.from(svg).toString("base64") },
    });
    expect(uploaded.statusCode).toBe(200);
    const media = uploaded.json();
    expect(media).toEqual({ name: "band.svg", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const shown = await request(t.app, "GET", studio(`/media/band.svg?sha256=${media.sha256}`), {
      cookie: instructor.cookie,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(shown.headers["content-security-policy"]).toMatch(/sandbox/);
    expect(shown.body).toBe(svg);

    const draft = await getDraft(instructor);
    const lesson = lessonOf(draft.document, "alpha-one");
    const block = (alt: string) =>
      `${lesson.body}\n\`\`\`figure\nsrc: band.svg\nalt: ${alt}\ncaption: A blue band.\nwidth: 64\nheight: 32\n\`\`\`\n`;
    const noAlt = await putLesson(instructor, draft.revision, { ...lesson, body: block("short") }, [media]);
    expect(noAlt.statusCode).toBe(200);
    expect(noAlt.json().problems.join("\n")).toMatch(/alt text must say what the figure shows/);
    const withAlt = await putLesson(
      instructor,
      noAlt.json().revision,
      { ...lesson, body: block("A blue band twice as wide as it is tall.") },
      [media],
    );
    expect(withAlt.json().problems).toEqual([]);
    expect((await getDraft(instructor)).document.media).toContainEqual(media);

    // Published, the learner's lesson shows it from the database, found by its name and hash only.
    const published = await request(t.app, "POST", studio("/publish"), {
      cookie: instructor.cookie,
      payload: { kind: "major", note: "A figure", baseRevision: withAlt.json().revision },
    });
    expect(published.statusCode, published.body).toBe(200);
    // A learner who enrols now studies this version (another test may have kept the first learner on
    // an earlier one).
    const newcomer = await signUpUser(t.app);
    await enrol(t, newcomer, COURSE);
    const page = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: newcomer.cookie });
    const src = /<img src="([^"]+band\.svg[^"]*)"/.exec(page.json().html)?.[1];
    expect(src).toMatch(/^\/media\/fixture-basics\/band\.svg\?v=[0-9a-f]{12}$/);
    const served = await request(t.app, "GET", src ?? "");
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe(svg);
    expect((await request(t.app, "GET", "/media/fixture-basics/band.svg")).statusCode).toBe(404);
    expect((await request(t.app, "GET", "/media/fixture-basics/band.svg?v=000000000000")).statusCode).toBe(404);
  });
});

describe("what an author pastes into a lesson", () => {
  it("never reaches the published lesson: no script, event handler, javascript: link or style", async () => {
    const draft = await getDraft(instructor);
    const lesson = lessonOf(draft.document, "alpha-one");
    const attack = [
      "Safe words before.",
      "",
      "<script>window.stolen = document.cookie</script>",
      '<img src="https://example.com/x.png" alt="x" width="10" height="10" onerror="window.stolen=1">',
      '[a link](javascript:alert(1)) and <a href="javascript:alert(2)">another</a>',
      '<p style="position:fixed;inset:0;background:url(https://evil.example/)">covered</p>',
      "<style>body{display:none}</style>",
      '<iframe src="https://evil.example/"></iframe>',
      "",
      "Safe words after.",
    ].join("\n\n");
    const saved = await putLesson(instructor, draft.revision, { ...lesson, body: `${lesson.body}\n${attack}\n` });
    expect(saved.statusCode).toBe(200);
    const published = await request(t.app, "POST", studio("/publish"), {
      cookie: instructor.cookie,
      payload: { kind: "major", note: "Pasted text", baseRevision: saved.json().revision },
    });
    expect(published.statusCode, published.body).toBe(200);

    const page = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: learner.cookie });
    const painted = await request(t.app, "GET", `/course/${COURSE}/lesson/alpha-one`, { cookie: learner.cookie });
    for (const html of [page.json().html as string, painted.body]) {
      expect(html).not.toMatch(
        /<script>window\.stolen|onerror|href="?javascript:|style="position|<style>body|evil\.example/i,
      );
    }
    expect(page.json().html).toContain("Safe words before.");
    expect(page.json().html).toContain("Safe words after.");
    expect(page.json().html).toContain("covered");
    expect(page.json().html).toContain("a link");
  });
});

describe("question banks", () => {
  it("show the course's authors each published item's live statistics of the draft's version, flagged out of bounds", async () => {
    const { baseVersion, document } = await getDraft(instructor);
    const quiz = document.modules[0]?.quiz as { questions: { id: string; correctAnswer: string }[] };
    const question = quiz.questions[0] as { id: string; correctAnswer: string };
    const wrong = question.correctAnswer === "a" ? "b" : "a";
    const attempts = (count: number, option: string, score: number, courseVersion: number) =>
      Array.from({ length: count }, () => ({
        id: randomUUID(),
        userId: learner.id,
        courseId: COURSE,
        moduleId: "alpha",
        score,
        correctCount: 0,
        total: 6,
        passed: false,
        answers: JSON.stringify({ [question.id]: option }),
        createdAt: new Date().toISOString(),
        courseVersion,
      }));
    // 28 of 30 right on the draft's version (too easy); an earlier version's attempts do not count.
    await t.testDb.database.db
      .insertInto("quizAttempt")
      .values([
        ...attempts(28, question.correctAnswer, 90, baseVersion ?? 1),
        ...attempts(2, wrong, 40, baseVersion ?? 1),
        ...attempts(5, wrong, 40, (baseVersion ?? 1) + 50),
      ])
      .execute();
    const url = studio(`/item-statistics?version=${baseVersion}`);
    const res = await request(t.app, "GET", url, { cookie: instructor.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const stats = res.json() as ItemStatistics;
    expect(stats.version).toBe(baseVersion);
    const item = stats.items.find((i) => i.assessment === "alpha" && i.questionId === question.id);
    expect(item).toMatchObject({ responses: 30, difficulty: 0.933, enoughData: true, flags: ["too-easy"] });
    expect(item?.options.find((o) => o.id === wrong)?.count).toBe(2);
    expect(item?.options.find((o) => o.correct)?.count).toBe(28);
    for (const user of [learner, stranger])
      expect((await request(t.app, "GET", url, { cookie: user.cookie })).statusCode).toBe(403);
    expect(
      (await request(t.app, "GET", studio("/item-statistics?version=99"), { cookie: instructor.cookie })).statusCode,
    ).toBe(404);
  });

  it("take questions of 2 to 6 options", async () => {
    const draft = await getDraft(instructor);
    const document = structuredClone(draft.document);
    const questions = document.modules[0]?.quiz?.questions as {
      options: { id: string; text: string }[];
      correctAnswer: string;
    }[];
    const [two, six] = questions;
    if (!two || !six) throw new Error("no questions");
    two.options = two.options.filter(
      (o) => o.id === two.correctAnswer || o.id === (two.correctAnswer === "a" ? "b" : "a"),
    );
    six.options.push({ id: "e", text: "Option e" }, { id: "f", text: "Option f" });
    const saved = await request(t.app, "PUT", studio("/draft"), {
      cookie: instructor.cookie,
      payload: { baseRevision: draft.revision, document },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().problems).toEqual([]);
  });
});

describe("previewing a draft lesson", () => {
  it("shows the draft's text as the lesson page would, to authors only, and publishes nothing", async () => {
    const draft = await getDraft(instructor);
    const lesson = lessonOf(draft.document, "beta-one");
    const body = `${lesson.body}\nOnly in the draft so far.\n\n<script>window.x=1</script>\n`;
    expect((await putLesson(instructor, draft.revision, { ...lesson, body })).statusCode).toBe(200);
    const url = studio("/lessons/beta-one/preview");
    const preview = await request(t.app, "GET", url, { cookie: instructor.cookie });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().html).toContain("Only in the draft so far.");
    expect(preview.json().html).not.toContain("<script");
    for (const user of [learner, stranger])
      expect((await request(t.app, "GET", url, { cookie: user.cookie })).statusCode).toBe(403);
    const served = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/beta-one`, { cookie: learner.cookie });
    expect(served.json().html ?? "").not.toContain("Only in the draft so far.");
  });
});
