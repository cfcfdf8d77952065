import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "#server/content/content-files.ts";
import { createTestApp, enrol, FIXTURE_CONTENT, request, signUpUser, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("correct answers never reach the browser before a submission", () => {
  it("holds for every course, lesson and quiz read, for a visitor, a learner and an enrolled learner", async () => {
    const content = loadContent(FIXTURE_CONTENT);
    const learner = await signUpUser(t.app);
    const student = await signUpUser(t.app);
    for (const c of content.courses) await enrol(t, student, c.id);
    const explanations = content.courses.flatMap((c) =>
      c.modules.flatMap((m) => m.quiz?.questions.map((q) => q.explanation) ?? []),
    );
    expect(explanations.length).toBeGreaterThan(0);

    let reads = 0;
    for (const cookie of [undefined, learner.cookie, student.cookie]) {
      const urls = ["/api/courses"];
      for (const c of content.courses) {
        urls.push(`/api/courses/${c.id}`);
        for (const m of c.modules) {
          // The start (a POST), then the read of the attempt it opened.
          urls.push(`/api/quiz/${c.id}/${m.id}/attempt`, `/api/quiz/${c.id}/${m.id}`);
          for (const l of m.lessons) urls.push(`/api/courses/${c.id}/lessons/${l.id}`);
        }
        if (cookie === student.cookie) urls.push(`/api/progress/${c.id}`);
      }
      for (const url of urls) {
        const res = await request(t.app, url.endsWith("/attempt") ? "POST" : "GET", url, { cookie });
        reads++;
        expect(res.body, url).not.toMatch(/correctAnswer/i);
        for (const e of explanations) expect(res.body, url).not.toContain(e);
      }
    }
    expect(reads).toBeGreaterThan(30);
  });
});
