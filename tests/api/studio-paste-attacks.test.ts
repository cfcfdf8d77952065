import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DomUtils, parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { completeCourse, takeAssessment } from "../setup/assessments.ts";
import { deliverQueuedMail } from "../setup/outbox.ts";
import {
  buyInSandbox,
  createTestApp,
  request,
  signUpStaff,
  signUpUser,
  type TestApp,
  type TestUser,
} from "../setup/test-app.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

/**
 * Issue 39's rule: nothing an author types reaches a learner unsanitised. Script, an event handler,
 * `javascript:` links (HTML and Markdown) and a style attack go into every field an author types,
 * through the studio's own routes; after publishing, the learner's API answers, the server-painted
 * pages, the receipt e-mail and the certificate's PDF carry none of it as live markup.
 */
let t: TestApp;
let smtp: TestSmtp;
let admin: TestUser;
let instructor: TestUser;
let learner: TestUser;
const COURSE = "fixture-basics";
const studio = (path = "") => `/api/studio/courses/${COURSE}${path}`;

/** Every attack calls pwn() or loads evil.example, so any trace of one in live markup is found by that. */
const ATTACK =
  '<script>pwn()</script><img src=https://e.example/i.png alt=i width=1 height=1 onerror=pwn()><a href="javascript:pwn()">j</a>';
/** Titles take at most 200 characters: the Markdown link and the style attacks go into the longer fields. */
const LONG_ATTACK = `${ATTACK}[m](javascript:pwn())<b style="background:url(//evil.example)">s</b><style>*{background:url(//evil.example)}</style>`;
/** For fields that take at most 50 characters (duration). */
const SHORT_ATTACK = "<img src=x onerror=pwn()>";
const withAttack = (text: string) => `${text} ${LONG_ATTACK}`;

/** Appends the attack to every author-typed string of a file object (ids, keys and references left alone). */
const NOT_TYPED = new Set([
  ...["id", "lesson", "correctAnswer", "gradient", "level", "src", "captions", "marketplaceUrl"],
  // A level's label is what the pass rule names; the evidence is one of two words.
  ...["label", "minimumLevel", "evidence"],
]);
function poison(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    if (NOT_TYPED.has(key) || /^\d{4}-\d{2}-\d{2}/.test(value)) return value;
    if (key === "duration") return `${value} ${SHORT_ATTACK}`;
    // Fields of at most 200 characters keep the start of their text.
    return key === "title" || key === "reviewerRole" ? `${value.slice(0, 40)} ${ATTACK}` : withAttack(value);
  }
  if (Array.isArray(value)) return value.map((v) => poison(v, key));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  return value;
}

/** Live markup an attack left in an HTML document or fragment: each element, attribute and style that runs or loads it. */
function liveAttacks(html: string): string[] {
  const found: string[] = [];
  for (const element of DomUtils.findAll(() => true, parseDocument(html).children)) {
    const text = DomUtils.textContent(element);
    if ((element.name === "script" || element.name === "style") && /pwn\(\)|evil\.example/.test(text))
      found.push(`<${element.name}>${text.slice(0, 60)}`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name) || /^\s*javascript:/i.test(value) || (name === "style" && /evil\.example/.test(value)))
        found.push(`<${element.name} ${name}="${value}">`);
    }
  }
  return found;
}

/** Every string in a JSON answer whose key says it is HTML (the fields the client puts in the page as markup). */
function htmlFields(value: unknown, key = ""): string[] {
  if (typeof value === "string") return /html$/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => htmlFields(v, key));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => htmlFields(v, k));
  return [];
}

/** The HTML parts of a raw MIME message, decoded (quoted-printable or base64). */
function htmlPartsOf(raw: string): string[] {
  return raw
    .split(/\r?\n--[^\r\n]+\r?\n/)
    .filter((part) => /^Content-Type: text\/html/im.test(part))
    .map((part) => {
      const body = part.slice(part.search(/\r?\n\r?\n/)).trim();
      if (/^Content-Transfer-Encoding: base64/im.test(part)) return Buffer.from(body, "base64").toString("utf8");
      return Buffer.from(
        body
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
        "latin1",
      ).toString("utf8");
    });
}

/**
 * The built app when there is one (CI builds it first), whose server renderer paints the public pages'
 * bodies; otherwise Vite's template, whose head the server still fills in (title, description, share tags).
 */
function paintingClientDir() {
  const built = resolve("dist/client");
  if (existsSync(join(built, "index.html")) && existsSync(resolve("dist/server/entry-server.js"))) return built;
  const dir = mkdtempSync(join(tmpdir(), "paste-client-"));
  copyFileSync("index.html", join(dir, "index.html"));
  return dir;
}

const getDraft = async () =>
  (await request(t.app, "GET", studio("/draft"), { cookie: instructor.cookie })).json() as Draft;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({
    clientDir: paintingClientDir(),
    practical: true,
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
  });
  admin = await signUpUser(t.app);
  await t.testDb.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
  instructor = await signUpStaff(t, admin, "instructor");
  const assigned = await request(t.app, "POST", "/api/admin/course-staff", {
    cookie: admin.cookie,
    payload: { userId: instructor.id, courseId: COURSE, role: "instructor" },
  });
  expect(assigned.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("what an author pastes into any field of the studio", () => {
  it("reaches no learner page, painted page, e-mail or PDF as markup that runs or loads anything", async () => {
    // A practical to write into: fixture-practical's, put into this course's draft.
    const practical = (
      (
        await request(t.app, "GET", "/api/studio/courses/fixture-practical/draft", { cookie: admin.cookie })
      ).json() as Draft
    ).document.practical;
    expect(practical).not.toBeNull();
    const start = await getDraft();

    // Settings (course.json: title, description, duration, outcomes, SEO, notices) through the settings route.
    const course = poison(start.document.course) as CourseDocument["course"];
    const settings = await request(t.app, "PUT", studio("/draft/course"), {
      cookie: instructor.cookie,
      payload: { baseRevision: start.revision, course },
    });
    expect(settings.statusCode, settings.body).toBe(200);

    // Modules, banks, the exam and the practical (brief, criteria, levels, descriptors) as their editors save them.
    const afterSettings = settings.json() as Draft;
    const document = structuredClone(afterSettings.document);
    for (const module of document.modules) {
      module.module = poison(module.module) as typeof module.module;
      module.quiz = poison(module.quiz) as typeof module.quiz;
    }
    document.exam = poison(document.exam) as typeof document.exam;
    document.practical = practical && {
      ...practical,
      meta: poison(practical.meta) as typeof practical.meta,
      body: withAttack(practical.body),
    };
    const whole = await request(t.app, "PUT", studio("/draft"), {
      cookie: instructor.cookie,
      payload: { baseRevision: afterSettings.revision, document },
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().problems).toEqual([]);

    // Each lesson (its title and body, and a figure's alt text and caption) through the lesson route.
    let revision = (whole.json() as Draft).revision;
    const figure = [
      "```figure",
      "src: steps.svg",
      `alt: "Steps up a hill ${ATTACK.replaceAll('"', '\\"')}"`,
      `caption: "Three steps ${ATTACK.replaceAll('"', '\\"')}"`,
      "width: 64",
      "height: 32",
      "```",
    ].join("\n");
    for (const module of document.modules)
      for (const lesson of module.lessons) {
        const body = `${lesson.body}\n\n${LONG_ATTACK}\n\n${figure}\n\n${LONG_ATTACK.replaceAll("><", ">\n\n<")}\n`;
        const saved = await request(t.app, "PUT", studio(`/lessons/${lesson.id}`), {
          cookie: instructor.cookie,
          payload: {
            baseRevision: revision,
            lesson: { ...lesson, meta: { ...(poison(lesson.meta) as object), duration: lesson.meta.duration }, body },
            media: [],
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        expect(saved.json().problems, lesson.id).toEqual([]);
        revision = saved.json().revision;
      }

    // Published with the attack in the change note too.
    const published = await request(t.app, "POST", studio("/publish"), {
      cookie: instructor.cookie,
      payload: { kind: "major", note: withAttack("Pasted everywhere"), baseRevision: revision },
    });
    expect(published.statusCode, published.body).toBe(200);

    // A learner buys the course (the receipt names it) and holds a certificate of this version.
    learner = await signUpUser(t.app);
    await buyInSandbox(t, learner, COURSE);
    const now = new Date().toISOString();
    await t.testDb.database.db
      .insertInto("certificate")
      .values({
        id: "cert-pasted",
        certificateId: "AC-PASTE-0001",
        userId: learner.id,
        courseId: COURSE,
        firstName: "Test",
        lastName: "Learner",
        completedAt: now,
        expiresAt: "2099-01-01T00:00:00.000Z",
        issuedAt: now,
        revokedAt: null,
        revokedReason: null,
        courseVersion: published.json().version,
      })
      .execute();

    // A quiz drawn and answered (questions, options, then the explanations), then the rest of the
    // course passed, which opens every lesson and the practical.
    const quiz = await takeAssessment(t.app, learner.cookie, COURSE, "alpha");
    expect(quiz.status).toBe(200);
    expect(quiz.quiz.questions[0]?.question).toContain("pwn()");
    await completeCourse(t.app, learner.cookie, COURSE);
    const as = async (method: "GET" | "POST", url: string) => {
      const res = await request(t.app, method, url, { cookie: learner.cookie });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return res;
    };
    const lessons = document.modules.flatMap((m) => m.lessons.map((l) => l.id));
    const answers = [
      await as("GET", "/api/courses"),
      await as("GET", `/api/courses/${COURSE}`),
      ...(await Promise.all(lessons.map((id) => as("GET", `/api/courses/${COURSE}/lessons/${id}`)))),
      await as("GET", `/api/exam/${COURSE}/rules`),
      await as("GET", `/api/practical/${COURSE}`),
      await as("GET", "/api/purchases"),
      await as("GET", "/api/verify/AC-PASTE-0001"),
    ];

    // The attack did reach the data, as text: the title and the lesson text say so.
    const coursePage = answers[1]?.json();
    expect(coursePage.title).toContain("<script>pwn()</script>");
    expect(coursePage.update.note).toContain("Pasted everywhere");

    const painted = await Promise.all(
      ["/", `/course/${COURSE}`, ...lessons.map((id) => `/course/${COURSE}/lesson/${id}`), "/verify/AC-PASTE-0001"].map(
        async (url) => {
          const res = await request(t.app, "GET", url, { cookie: learner.cookie });
          expect(res.statusCode, url).toBe(200);
          return { url, html: res.body };
        },
      ),
    );
    expect(painted.find((p) => p.url === `/course/${COURSE}`)?.html).toContain("&lt;script&gt;pwn()");

    await deliverQueuedMail(t.app);
    const mails = smtp.inbox.filter(
      (m) => m.to.includes(learner.email) && /Subject: (=\?UTF-8\?Q\?)?Receipt/.test(m.raw),
    );
    expect(mails, smtp.inbox.map((m) => `${m.to} ${/Subject: .*/.exec(m.raw)?.[0]}`).join("\n")).toHaveLength(1);
    const mailHtml = htmlPartsOf(mails[0]?.raw ?? "");
    expect(mailHtml.join("")).toContain("Fixture Basics");

    const found: Record<string, string[]> = {};
    const note = (where: string, list: string[]) => {
      if (list.length) found[where] = list;
    };
    const json = [
      ...answers.map((a) => ({ url: a.raw.req.url ?? "", body: a.json() as unknown })),
      { url: "quiz", body: quiz },
    ];
    for (const { url, body } of json) for (const html of htmlFields(body)) note(url, liveAttacks(html));
    expect(htmlFields(json.map((a) => a.body)).length).toBeGreaterThan(lessons.length);
    for (const { url, html } of painted) note(url, liveAttacks(html));
    for (const html of mailHtml) note("receipt e-mail", liveAttacks(html));

    // The certificate's PDF: no link or action that runs script.
    const pdf = await request(t.app, "GET", "/api/certificates/AC-PASTE-0001/pdf", { cookie: learner.cookie });
    expect(pdf.statusCode).toBe(200);
    note(
      "certificate PDF",
      pdf.rawPayload.toString("latin1").match(/\/(JavaScript|JS)\b|\/URI\s*\(\s*javascript:/gi) ?? [],
    );
    expect(found).toEqual({});
  });
});
