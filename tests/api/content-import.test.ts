import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError, loadContent } from "#server/content/content-files.ts";
import { importContent, importContentIfChanged } from "#server/content/content-import.ts";
import { sanitizeLessonHtml } from "#server/content/sanitize.ts";
import { takeAssessment } from "../setup/assessments.ts";
import { must } from "../setup/must.ts";
import { createTestApp, enrol, FIXTURE_CONTENT, request, signUpUser, type TestApp } from "../setup/test-app.ts";

function copyFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), "content-"));
  cpSync(FIXTURE_CONTENT, join(dir, "courses"), { recursive: true });
  return join(dir, "courses");
}
const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(file, change(readFileSync(file, "utf8")));
/** A content file's JSON, loose enough to break on purpose (drop a field, set a wrong value). */
interface ContentJson {
  [field: string]: unknown;
  blueprint?: Record<string, number>;
  questions: {
    id: string;
    lesson: string;
    correctAnswer: string;
    explanation?: string;
    options: { id: string; text: string }[];
  }[];
}
const question = (v: ContentJson, index: number) => must(v.questions[index], `question ${index}`);
const editJson = (file: string, change: (value: ContentJson) => void) =>
  edit(file, (text) => {
    const value: ContentJson = JSON.parse(text);
    change(value);
    return JSON.stringify(value);
  });

describe("content validation", () => {
  const cases: { name: string; mutate: (dir: string) => void; message: RegExp }[] = [
    {
      name: "an exam without a blueprint",
      mutate: (d) => editJson(`${d}/fixture-basics/exam.json`, (v) => delete v.blueprint),
      message: /fixture-basics\/exam\.json: blueprint:/,
    },
    {
      name: "a blueprint that leaves a module out",
      mutate: (d) => editJson(`${d}/fixture-basics/exam.json`, (v) => (v.blueprint = { alpha: 3, beta: 2 })),
      message: /exam\.json: blueprint: module 'gamma' is missing/,
    },
    {
      name: "a blueprint that does not add up to the draw",
      mutate: (d) => editJson(`${d}/fixture-basics/exam.json`, (v) => (v.blueprint = { ...v.blueprint, alpha: 3 })),
      message: /exam\.json: blueprint: the modules' items add up to 6, but each exam draws 5/,
    },
    {
      name: "a blueprint asking a module for more items than its bank holds",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/exam.json`, (v) => {
          v.blueprint = { alpha: 2, beta: 1, gamma: 2 };
          // Two of gamma's three exam questions move to alpha: one is left for two places.
          for (const q of v.questions.filter((x) => x.lesson === "gamma-one").slice(0, 2)) q.lesson = "alpha-one";
        }),
      message: /exam\.json: blueprint: module 'gamma' has 1 questions in the bank, fewer than the 2 each exam draws/,
    },
    {
      name: "a missing course field",
      mutate: (d) => editJson(`${d}/fixture-basics/course.json`, (v) => delete v.title),
      message: /fixture-basics\/course\.json: title:/,
    },
    {
      name: "an unknown level",
      mutate: (d) => editJson(`${d}/fixture-basics/course.json`, (v) => (v.level = "Expert")),
      message: /course\.json: level:/,
    },
    {
      name: "a price that is not whole cents",
      mutate: (d) => editJson(`${d}/fixture-other/course.json`, (v) => (v.price = 19.99)),
      message: /fixture-other\/course\.json: price:/,
    },
    {
      name: "invalid JSON",
      mutate: (d) => writeFileSync(`${d}/fixture-basics/modules/01-alpha/module.json`, "{ nope"),
      message: /01-alpha\/module\.json: invalid JSON/,
    },
    {
      name: "an unknown field",
      mutate: (d) => editJson(`${d}/fixture-basics/course.json`, (v) => (v.colour = "red")),
      message: /course\.json: .*colour/,
    },
    {
      name: "a correct answer that is not an option",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => (question(v, 1).correctAnswer = "z")),
      message: /01-alpha\/quiz\.json: questions\.1\.correctAnswer: 'z' is not one of the options/,
    },
    {
      name: "a question without an explanation",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/modules/02-beta/quiz.json`, (v) => delete question(v, 0).explanation),
      message: /02-beta\/quiz\.json: questions\.0\.explanation:/,
    },
    {
      name: "a bank smaller than three times its draw",
      mutate: (d) => editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => (v.draw = 6)),
      message: /01-alpha\/quiz\.json: questions: the bank holds 15 questions; drawing 6 per attempt needs at least 18/,
    },
    {
      name: "a bank smaller than three times the default draw of 6",
      mutate: (d) => editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => delete v.draw),
      message: /01-alpha\/quiz\.json: questions: .*drawing 6 per attempt needs at least 18/,
    },
    {
      name: "a question id used twice in a bank",
      mutate: (d) => editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => (question(v, 2).id = "q1")),
      message: /01-alpha\/quiz\.json: questions\.2\.id: duplicate question id 'q1'/,
    },
    {
      name: "a question with one option (2 to 6)",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => question(v, 3).options.splice(1)),
      message: /01-alpha\/quiz\.json: questions\.3\.options:/,
    },
    {
      name: "a question with seven options (2 to 6)",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) =>
          question(v, 3).options.push(
            { id: "e", text: "Option e" },
            { id: "f", text: "Option f" },
            { id: "g", text: "Option g" },
          ),
        ),
      message: /01-alpha\/quiz\.json: questions\.3\.options:/,
    },
    {
      name: "a quiz question testing a lesson of another module",
      mutate: (d) =>
        editJson(`${d}/fixture-basics/modules/01-alpha/quiz.json`, (v) => (question(v, 0).lesson = "beta-one")),
      message: /01-alpha\/quiz\.json: questions\.0\.lesson: 'beta-one' is not a lesson of this module/,
    },
    {
      name: "an exam question testing a lesson the course does not have",
      mutate: (d) => editJson(`${d}/fixture-basics/exam.json`, (v) => (question(v, 4).lesson = "delta-one")),
      message: /fixture-basics\/exam\.json: questions\.4\.lesson: 'delta-one' is not a lesson of this course/,
    },
    {
      name: "an exam question without an explanation",
      mutate: (d) => editJson(`${d}/fixture-basics/exam.json`, (v) => (question(v, 0).explanation = " ")),
      message: /fixture-basics\/exam\.json: questions\.0\.explanation:/,
    },
    {
      name: "a lesson without front matter",
      mutate: (d) => writeFileSync(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, "Just text"),
      message: /02-alpha-two\.md: front matter/,
    },
    {
      name: "a bad lesson duration",
      mutate: (d) => edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace("5 min", "five")),
      message: /02-alpha-two\.md: duration:/,
    },
    {
      name: "a lesson id used twice in a course",
      mutate: (d) =>
        writeFileSync(
          `${d}/fixture-basics/modules/02-beta/03-alpha-one.md`,
          "---\ntitle: Again\nduration: 3 min\n---\nText",
        ),
      message: /03-alpha-one\.md: lesson id 'alpha-one' is already used/,
    },
    {
      name: "a figure without alt text",
      mutate: (d) => edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^alt: .*\n/m, "")),
      message: /02-alpha-two\.md: figure block: alt: alt text is required/,
    },
    {
      name: "a figure whose alt text says nothing",
      mutate: (d) =>
        edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^alt: .*$/m, 'alt: " "')),
      message: /02-alpha-two\.md: figure block: alt: alt text must say what the figure shows/,
    },
    {
      name: "a figure without a caption",
      mutate: (d) =>
        edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^caption: Step.*\n/m, "")),
      message: /02-alpha-two\.md: figure block: caption: a caption is required/,
    },
    {
      name: "a figure without its size",
      mutate: (d) =>
        edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^height: 200\n/m, "")),
      message: /02-alpha-two\.md: figure block: height:/,
    },
    {
      name: "a figure sized against its drawing",
      mutate: (d) =>
        edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^height: 200$/m, "height: 400")),
      message: /02-alpha-two\.md: figure 'steps\.svg': width\/height 400x400 do not match its viewBox 400x200/,
    },
    {
      name: "a figure whose file is missing",
      mutate: (d) => rmSync(`${d}/fixture-basics/media/steps.svg`),
      message: /02-alpha-two\.md: media file 'steps\.svg' is not in fixture-basics\/media\//,
    },
    {
      name: "a video without captions",
      mutate: (d) =>
        edit(`${d}/fixture-basics/modules/01-alpha/02-alpha-two.md`, (s) => s.replace(/^captions: .*\n/m, "")),
      message: /02-alpha-two\.md: video block: captions:/,
    },
    {
      name: "an image written as HTML without alt text",
      mutate: (d) =>
        edit(
          `${d}/fixture-basics/modules/01-alpha/01-alpha-one.md`,
          (s) => `${s}\n\n<img src="https://example.org/a.png" width="10" height="10">\n`,
        ),
      message: /01-alpha-one\.md: image 'https:\/\/example\.org\/a\.png' has no alt text/,
    },
    {
      name: "a video written as HTML without a captions track",
      mutate: (d) =>
        edit(
          `${d}/fixture-basics/modules/01-alpha/01-alpha-one.md`,
          (s) =>
            `${s}\n\n<video controls width="640" height="360"><source src="https://example.org/v.mp4" type="video/mp4"></video>\n`,
        ),
      message: /01-alpha-one\.md: a video has no captions track/,
    },
  ];
  for (const c of cases) {
    it(`stops on ${c.name}, naming the file and field`, () => {
      const dir = copyFixtures();
      try {
        c.mutate(dir);
        expect(() => loadContent(dir)).toThrow(ContentError);
        expect(() => loadContent(dir)).toThrow(c.message);
      } finally {
        rmSync(join(dir, ".."), { recursive: true, force: true });
      }
    });
  }
});

describe("lesson HTML sanitising", () => {
  it("removes scripts, handlers, javascript: URLs, forms and unknown iframes, and keeps teaching markup", () => {
    const html = sanitizeLessonHtml(`
      <h2 onclick="steal()">Heading</h2><script>alert(1)</script>
      <p>Text <a href="javascript:alert(1)">bad</a> <a href="https://example.org/x">good</a></p>
      <img src="x" onerror="alert(1)"><form action="/steal"><input name="card"></form>
      <iframe src="https://evil.example/embed"></iframe>
      <iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video"></iframe>
      <table><tr><th>Food</th><td>Oats</td></tr></table>`);
    expect(html).not.toMatch(/script|onclick|onerror|javascript:|<form|<input|evil\.example/);
    expect(html).toContain("<h2>Heading</h2>");
    expect(html).toContain('href="https://example.org/x"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain("youtube-nocookie.com/embed/abc");
    expect(html).toContain("<th>Food</th>");
  });
});

describe("figures and videos", () => {
  it("the sanitiser keeps a figure's image, size, alt text and caption, and a video's captions track", () => {
    const html = sanitizeLessonHtml(
      `<figure><img src="/media/c/plate.svg?v=abc123" alt="A plate in four parts" width="640" height="420" onerror="x()"><figcaption>The plate</figcaption></figure>` +
        `<figure><video controls preload="metadata" width="640" height="360" title="Demo" onplay="x()"><source src="javascript:alert(1)"><source src="https://cdn.example.org/v.mp4" type="video/mp4"><track kind="captions" src="/media/c/v.vtt" srclang="en" label="English" default></video><figcaption>Demo</figcaption></figure>`,
    );
    expect(html).toContain(
      '<img src="/media/c/plate.svg?v=abc123" alt="A plate in four parts" width="640" height="420" loading="lazy" decoding="async" />',
    );
    expect(html).toContain("<figcaption>The plate</figcaption>");
    expect(html).toMatch(/<video controls(="")? preload="metadata" width="640" height="360" title="Demo">/);
    expect(html).toContain('<source src="https://cdn.example.org/v.mp4" type="video/mp4" />');
    expect(html).toMatch(
      /<track kind="captions" src="\/media\/c\/v\.vtt" srclang="en" label="English" default(="")? \/>/,
    );
    expect(html).not.toMatch(/onerror|onplay|javascript:/);
  });

  describe("in a lesson", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => t?.close());

    it("renders a figure with its size, alt text and caption, and a video with its captions, served from the course's media folder", async () => {
      const user = await signUpUser(t.app);
      await enrol(t, user, "fixture-basics");
      const lesson = await request(t.app, "GET", "/api/courses/fixture-basics/lessons/alpha-two", {
        cookie: user.cookie,
      });
      const html: string = lesson.json().html;
      const img =
        /<img src="(\/media\/fixture-basics\/steps\.svg\?v=[a-f0-9]+)" alt="([^"]+)" width="400" height="200"/.exec(
          html,
        );
      expect(img?.[2]).toBe("Two boxes joined by an arrow, step one leading to step two.");
      expect(html).toMatch(/<figcaption>Step one comes before step two\. <a href="\/media\/fixture-basics\/steps\.svg/);
      const track = /<track kind="captions" src="(\/media\/fixture-basics\/clip\.en\.vtt\?v=[a-f0-9]+)"/.exec(html);
      expect(html).toMatch(/<video controls(="")? preload="none" playsinline(="")? width="640" height="360"/);

      const svg = await request(t.app, "GET", must(img?.[1], "the image URL"));
      expect(svg.statusCode).toBe(200);
      expect(svg.headers["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(svg.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(svg.headers["content-security-policy"]).toMatch(/default-src 'none'.*sandbox/);
      expect(svg.body).toContain("<svg");
      const vtt = await request(t.app, "GET", must(track?.[1], "the captions URL"));
      expect(vtt.statusCode).toBe(200);
      expect(vtt.body).toMatch(/^WEBVTT/);
    });

    it("serves nothing but the media folder", async () => {
      for (const path of [
        "/media/fixture-basics/course.json",
        "/media/fixture-basics/..%2Fcourse.json",
        "/media/fixture-basics/exam.json",
        "/media/..%2Ffixture-basics/steps.svg",
      ]) {
        expect((await request(t.app, "GET", path)).statusCode, path).toBe(400);
      }
      expect((await request(t.app, "GET", "/media/fixture-basics/missing.svg")).statusCode).toBe(404);
      expect((await request(t.app, "GET", "/media/fixture-other/steps.svg")).statusCode).toBe(404);
    });
  });
});

describe("re-importing", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it("updates the text, refreshes cached responses, and keeps every learner's records", async () => {
    const user = await signUpUser(t.app);
    await enrol(t, user, "fixture-basics");
    expect(
      (
        await request(t.app, "POST", "/api/progress/fixture-basics/lessons/alpha-one/complete", {
          cookie: user.cookie,
          payload: {},
        })
      ).statusCode,
    ).toBe(200);
    expect((await takeAssessment(t.app, user.cookie, "fixture-basics", "alpha")).result.passed).toBe(true);
    expect((await request(t.app, "GET", "/api/courses")).json()[0].title).toBe("Fixture Basics");

    const dir = copyFixtures();
    editJson(`${dir}/fixture-basics/course.json`, (v) => (v.title = "Fixture Basics, Second Edition"));
    edit(`${dir}/fixture-basics/modules/01-alpha/01-alpha-one.md`, (s) =>
      s.replace("This is the body", "This is the revised body"),
    );
    const result = await importContentIfChanged(t.testDb.database.db, dir);
    expect(result?.courses).toBe(3);
    expect(await importContentIfChanged(t.testDb.database.db, dir)).toBeNull();

    expect((await request(t.app, "GET", "/api/courses")).json()[0].title).toBe("Fixture Basics, Second Edition");
    expect((await request(t.app, "GET", "/api/courses/fixture-basics/lessons/alpha-one")).json().html).toContain(
      "revised body",
    );
    const progress = (await request(t.app, "GET", "/api/progress/fixture-basics", { cookie: user.cookie })).json();
    expect(progress.completedLessons).toEqual(["alpha-one"]);
    expect(progress.completedModules).toEqual(["alpha"]);
    expect((await request(t.app, "GET", "/api/enrollments/fixture-basics", { cookie: user.cookie })).json()).toEqual({
      enrolled: true,
    });

    // And once more with the original files: still idempotent for learners.
    await importContent(t.testDb.database.db, loadContent(FIXTURE_CONTENT));
    expect(
      (await request(t.app, "GET", "/api/progress/fixture-basics", { cookie: user.cookie })).json().completedModules,
    ).toEqual(["alpha"]);
    rmSync(join(dir, ".."), { recursive: true, force: true });
  });
});
