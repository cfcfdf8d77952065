import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { completeCourse } from "../setup/assessments.ts";
import { createTestApp, enrol, request, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  const clientDir = mkdtempSync(join(tmpdir(), "client-"));
  writeFileSync(
    join(clientDir, "index.html"),
    "<!doctype html><head><title>Academy</title></head><body>app shell</body>",
  );
  t = await createTestApp({ clientDir });
});
afterAll(async () => t?.close());

describe("what the server tells browsers and crawlers about pages", () => {
  it("sends the app for every path, with 200 for the app's routes and 404 for unknown ones", async () => {
    const questionsPages = [
      "search?course=fixture-basics",
      "unanswered",
      "notices",
      "unsubscribe?token=x",
      "moderation",
    ];
    for (const url of [
      "/",
      "/login?tab=signup",
      "/course/fixture-basics",
      ...questionsPages.map((p) => `/questions/${p}`),
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain("app shell");
    }
    for (const url of [
      "/no/such/page",
      "/course/x/lesson",
      "/loginx",
      "/course/x/lesson/y/extra",
      "/questions/no-such-page",
      "/questions/search/extra",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, "the app still renders its own 404 page").toContain("app shell");
    }
    const api = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: "Not found" });
  });

  it("answers 404 for a course, lesson, quiz, exam or checkout page whose content does not exist", async () => {
    const exists = [
      "/course/fixture-basics",
      "/course/fixture-soon",
      "/course/fixture-basics/lesson/alpha-one",
      "/course/fixture-basics/quiz/alpha",
      "/course/fixture-basics/exam",
      "/course/fixture-basics/certificate",
      "/checkout/fixture-basics?coupon=X",
      "/simple-checkout/fixture-other",
    ];
    const missing = [
      "/course/no-such-course",
      "/course/no-such-course/lesson/alpha-one",
      "/course/fixture-basics/lesson/no-such-lesson",
      "/course/fixture-other/lesson/alpha-one",
      "/course/no-such-course/quiz/alpha",
      "/course/fixture-basics/quiz/no-such-module",
      "/course/fixture-basics/quiz/gamma",
      "/course/no-such-course/exam",
      "/course/fixture-other/exam",
      "/course/no-such-course/certificate",
      "/checkout/no-such-course",
      "/firebase-checkout/no-such-course",
      "/simple-checkout/no-such-course",
    ];
    for (const [urls, status] of [
      [exists, 200],
      [missing, 404],
    ] as const) {
      for (const url of urls) {
        const response = await t.app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(status);
        expect(response.body, url).toContain("app shell");
      }
    }
  });

  it("answers 404 for a verify page whose certificate does not exist, 200 for one that does", async () => {
    const user = await signUpUser(t.app);
    await enrol(t, user, "fixture-other");
    await completeCourse(t.app, user.cookie, "fixture-other");
    const issued = await request(t.app, "POST", "/api/certificate", {
      cookie: user.cookie,
      payload: { courseId: "fixture-other" },
    });
    const { certificateId } = issued.json() as { certificateId: string };
    for (const [url, status] of [
      [`/verify/${certificateId}`, 200],
      ["/verify/HWA-NO-SUCH-ID", 404],
    ] as const) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(status);
      expect(response.body, "the app renders its own page").toContain("app shell");
    }
  });

  it("every route the app declares is in the shared route table", () => {
    const routes = readFileSync("src/client/app/routes.tsx", "utf8");
    const paths = [...routes.matchAll(/<Route\s+path=(\S+)/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(10);
    // A section with routes of its own (the studio) is mounted at its shared pattern followed by /*.
    for (const path of paths)
      expect(path, "use routePatterns for every route").toMatch(
        /^\{routePatterns\.\w+\}$|^\{`\$\{routePatterns\.\w+\}\/\*`\}$|^"\*"$/,
      );
  });

  it("serves robots.txt pointing at a sitemap of the public pages and the open courses", async () => {
    const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers["content-type"]).toContain("text/plain");
    expect(robots.body).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
    expect(robots.body).toContain("Disallow: /admin");

    const sitemap = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc = ""]) => loc);
    expect(locs).toContain(`${TEST_ORIGIN}/`);
    expect(locs).toContain(`${TEST_ORIGIN}/terms`);
    expect(locs).toContain(`${TEST_ORIGIN}/course/fixture-basics`);
    expect(locs).not.toContain(`${TEST_ORIGIN}/course/fixture-soon`);
    expect(locs.some((loc) => loc.includes("/admin") || loc.includes("/checkout"))).toBe(false);
    for (const loc of locs) {
      const page = await t.app.inject({ method: "GET", url: loc.slice(TEST_ORIGIN.length) });
      expect(page.statusCode, loc).toBe(200);
    }
  });
});

describe("site texts the owner edits as files", () => {
  function copyOfSiteContent() {
    const dir = mkdtempSync(join(tmpdir(), "site-"));
    cpSync("content/site", dir, { recursive: true });
    return dir;
  }

  it("serves the landing figures, claims, testimonials and practitioner texts from content/site", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(response.statusCode).toBe(200);
    const { content } = response.json();
    const files = {
      landing: parseYaml(readFileSync("content/site/landing.yaml", "utf8")),
      testimonials: parseYaml(readFileSync("content/site/testimonials.yaml", "utf8")).testimonials,
    };
    expect(content.landing.figures.map((f: { value: string }) => f.value)).toEqual(
      files.landing.figures.map((f: { value: string }) => f.value),
    );
    expect(content.landing.figures.find((f: { value: string }) => f.value === "$50-150").qualifier).toMatch(
      /^not a promise of income/,
    );
    expect(content.testimonials).toHaveLength(files.testimonials.length);
    expect(content.testimonials.every((x: { sample: boolean }) => typeof x.sample === "boolean")).toBe(true);
    expect(content.practitionerApp.promo.title).toBe("Start practising on our companion app");
  });

  it("shows a changed figure after the file is edited and the server restarted", async () => {
    const dir = copyOfSiteContent();
    const file = join(dir, "landing.yaml");
    const figureOf = async (app: TestApp) =>
      (await app.app.inject({ method: "GET", url: "/api/config" }))
        .json()
        .content.landing.figures.find(
          (f: { value: string; label: string }) => f.label === "graduates holding our Certificates of Completion",
        );

    const before = await createTestApp({ content: false, siteContentDir: dir });
    expect((await figureOf(before)).value).toBe("2,000+");
    await before.close();

    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        '  - value: "2,000+"\n    label: graduates holding our Certificates of Completion',
        '  - value: "2,400+"\n    label: graduates holding our Certificates of Completion\n    source: certificate register\n    asOf: 2026-11',
      ),
    );
    const testimonials = join(dir, "testimonials.yaml");
    writeFileSync(
      testimonials,
      readFileSync(testimonials, "utf8").replace(
        "    sample: true",
        "    sample: false\n    consentDate: 2026-11-20\n    course: Nutrition Coach",
      ),
    );
    const after = await createTestApp({ content: false, siteContentDir: dir });
    try {
      expect(await figureOf(after)).toEqual({
        value: "2,400+",
        label: "graduates holding our Certificates of Completion",
        source: "certificate register",
        asOf: "2026-11",
      });
      const { content } = (await after.app.inject({ method: "GET", url: "/api/config" })).json();
      expect(content.testimonials[0].sample).toBe(false);
      expect(content.testimonials[1].sample).toBe(true);
    } finally {
      await after.close();
    }
  });

  it("never sends sample testimonials in production, and sends them labelled elsewhere", async () => {
    const dir = copyOfSiteContent();
    const testimonials = join(dir, "testimonials.yaml");
    const sent = async (env: string) => {
      const app = await createTestApp({ content: false, siteContentDir: dir, env: { NODE_ENV: env } });
      try {
        return (await app.app.inject({ method: "GET", url: "/api/config" })).json().content.testimonials;
      } finally {
        await app.close();
      }
    };
    expect(await sent("production")).toEqual([]);
    expect((await sent("development")).map((x: { sample: boolean }) => x.sample)).toEqual([true, true, true]);

    // A real testimonial, with consent and course, is shown in production; the samples still are not.
    writeFileSync(
      testimonials,
      readFileSync(testimonials, "utf8").replace(
        "    sample: true",
        "    sample: false\n    consentDate: 2026-11-20\n    course: Nutrition Coach",
      ),
    );
    expect((await sent("production")).map((x: { name: string }) => x.name)).toEqual(["Maria L."]);
  });

  it("shows a count or earnings figure in production only with its source and date (earnings: sample and period too)", async () => {
    const dir = copyOfSiteContent();
    const landing = join(dir, "landing.yaml");
    const sent = async (env: string) => {
      const app = await createTestApp({ content: false, siteContentDir: dir, env: { NODE_ENV: env } });
      try {
        return (await app.app.inject({ method: "GET", url: "/api/config" })).json().content;
      } finally {
        await app.close();
      }
    };
    const values = (content: { landing: { figures: { value: string }[] } }) =>
      content.landing.figures.map((f) => f.value);

    // As shipped, no count or earnings figure has its backing: production shows "0%" alone, with its fees.
    const shipped = await sent("production");
    expect(values(shipped)).toEqual(["0%"]);
    expect(shipped.landing.figures[0].qualifier).toMatch(/card-processing fees/);
    expect(shipped.landing.practitioner.claims.map((c: { text: string }) => c.text).join("\n")).not.toMatch(
      /\$|1000\+/,
    );
    expect(shipped.landing.practitioner.claims.some((c: { text: string }) => c.text.startsWith("24/7"))).toBe(true);
    expect(shipped.practitionerApp.banner).toBeNull();
    expect(shipped.practitionerApp.promo.claims.map((c: { text: string }) => c.text)).toEqual([
      "24/7 flexible schedule",
      "0% platform fees",
    ]);
    // Development shows them all (the page marks what production leaves out).
    expect(values(await sent("development"))).toEqual(["2,000+", "1000+", "$50-150", "0%"]);

    // A count with a source but no date stays out; with both it is shown.
    const withSource = readFileSync(landing, "utf8").replace(
      "    label: graduates holding our Certificates of Completion\n",
      "    label: graduates holding our Certificates of Completion\n    source: certificates issued\n",
    );
    writeFileSync(landing, withSource);
    expect(values(await sent("production"))).toEqual(["0%"]);
    writeFileSync(
      landing,
      withSource.replace("    source: certificates issued\n", "    source: certificates issued\n    asOf: 2026-11\n"),
    );
    expect(values(await sent("production"))).toEqual(["2,000+", "0%"]);

    // Earnings with source and date but no period stay out; with sample and period they are shown.
    const earnings = readFileSync(landing, "utf8").replace(
      "    source: practitioner app session prices\n",
      "    source: practitioner app session prices\n    asOf: 2026-11\n    sample: median of 140 practitioners' completed sessions\n",
    );
    writeFileSync(landing, earnings);
    expect(values(await sent("production"))).toEqual(["2,000+", "0%"]);
    writeFileSync(
      landing,
      earnings.replace(
        "median of 140 practitioners' completed sessions\n",
        "median of 140 practitioners' completed sessions\n    period: June to November 2026\n",
      ),
    );
    const backed = await sent("production");
    expect(values(backed)).toEqual(["2,000+", "$50-150", "0%"]);
    expect(backed.landing.figures[1].sample).toMatch(/median of 140/);
  });

  it("refuses a real testimonial without the graduate's consent date and course", async () => {
    const dir = copyOfSiteContent();
    const testimonials = join(dir, "testimonials.yaml");
    writeFileSync(testimonials, readFileSync(testimonials, "utf8").replace("    sample: true", "    sample: false"));
    await expect(createTestApp({ content: false, siteContentDir: dir })).rejects.toThrow(
      /site\/testimonials\.yaml: testimonials\.0\.consentDate: a real testimonial \(sample: false\) needs/,
    );
  });

  it("keeps the spec's values for a missing file, and refuses to start on an invalid one, naming file and field", async () => {
    const empty = mkdtempSync(join(tmpdir(), "site-empty-"));
    const defaults = await createTestApp({ content: false, siteContentDir: empty });
    try {
      const { content } = (await defaults.app.inject({ method: "GET", url: "/api/config" })).json();
      const values = content.landing.figures.map((f: { value: string }) => f.value);
      for (const value of ["2,000+", "1000+", "$50-150", "0%"]) expect(values).toContain(value);
      expect(content.landing.disclaimer.text).toContain("not medical advice");
    } finally {
      await defaults.close();
    }

    const dir = copyOfSiteContent();
    const file = join(dir, "landing.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace('  - value: "0%"', '  - value: ""'));
    await expect(createTestApp({ content: false, siteContentDir: dir })).rejects.toThrow(
      /site\/landing\.yaml: figures\.3\.value: /,
    );
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .replace('  - value: ""', '  - value: "0%"')
        .replace("  text: >-\n    Our courses are", "  text: >-\n    Medical disclaimer: our courses are"),
    );
    await expect(createTestApp({ content: false, siteContentDir: dir })).rejects.toThrow(
      /site\/landing\.yaml: disclaimer\.text: starts with the title/,
    );
    writeFileSync(join(dir, "landing.yaml"), "hero: [unclosed");
    await expect(createTestApp({ content: false, siteContentDir: dir })).rejects.toThrow(
      /site\/landing\.yaml: invalid YAML/,
    );
  });
});

describe("review dates", () => {
  it("the course and lesson pages name no reviewer until a review of the version is recorded (decision 0058); the title notice stays", async () => {
    const course = (await t.app.inject({ method: "GET", url: "/api/courses/fixture-basics" })).json();
    // The fixture's course.json has a date and a reviewer role, but no reviewer by name.
    expect(course.review).toBeNull();
    expect(course).not.toHaveProperty("lastReviewed");
    expect(course.titleNotice).toContain("protected title");

    const first = (await t.app.inject({ method: "GET", url: "/api/courses/fixture-basics/lessons/alpha-one" })).json();
    expect(first.review).toBeNull();
    expect(first).not.toHaveProperty("reviewerRole");

    const other = (await t.app.inject({ method: "GET", url: "/api/courses/fixture-other" })).json();
    expect(other.review).toBeNull();
    expect(other.titleNotice).toBeNull();
  });
});
