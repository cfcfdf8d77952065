import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_STARTS_PER_HOUR } from "#server/modules/learning/preview-limits.ts";
import { previewAttemptId } from "#server/modules/learning/preview-token.ts";
import type { Quiz } from "#shared/schemas/learning.ts";
import { answerKey, answersFor } from "../setup/assessments.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const URL = "/api/quiz/fixture-basics/alpha";
const key = answerKey("fixture-basics", "alpha");
let visitors = 0;
/** Each test is its own visitor (client address), so the per-visitor limit only bites where it is tested. */
const visitor = () => `203.0.113.${++visitors}`;

const start = (address: string) =>
  t.app.inject({ method: "POST", url: `${URL}/attempt`, headers: { origin: TEST_ORIGIN }, remoteAddress: address });
const submit = (address: string, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: URL,
    headers: { origin: TEST_ORIGIN },
    remoteAddress: address,
    payload: payload as object,
  });

describe("a visitor's preview quiz cannot reveal the answer key", () => {
  it("grades one preview attempt once: submitting it again, with any answers, is refused", async () => {
    const address = visitor();
    const quiz = (await start(address)).json() as Quiz;
    const first = await submit(address, { attemptId: quiz.attemptId, answers: answersFor(quiz, key, 0) });
    expect(first.statusCode).toBe(200);
    for (let right = 1; right <= quiz.questions.length; right++) {
      const again = await submit(address, { attemptId: quiz.attemptId, answers: answersFor(quiz, key, right) });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already been submitted/);
      expect(again.body).not.toMatch(/score/);
    }
  });

  it("a passed preview names no answer and no explanation", async () => {
    const address = visitor();
    const quiz = (await start(address)).json() as Quiz;
    const res = await submit(address, {
      attemptId: quiz.attemptId,
      answers: answersFor(quiz, key, quiz.questions.length),
    });
    expect(res.json()).toMatchObject({ passed: true, recorded: false, review: [] });
    expect(res.body).not.toMatch(/correctAnswer|explanation|questionId/);
  });

  it("refuses a preview attempt older than an hour", async () => {
    const address = visitor();
    const quiz = (await start(address)).json() as Quiz;
    const drawn = quiz.questions.map((q) => ({ id: q.id, options: q.options.map((o) => o.id) }));
    const startedAt = new Date(Date.now() - 61 * 60 * 1000).toISOString();
    const old = previewAttemptId(t.config.authSecret, "fixture-basics", "alpha", startedAt, drawn);
    const res = await submit(address, { attemptId: old, answers: answersFor(quiz, key, 0) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/expired/);
  });

  it(`a visitor starts at most ${PREVIEW_STARTS_PER_HOUR} preview quizzes an hour; another visitor is not affected`, async () => {
    const address = visitor();
    for (let i = 0; i < PREVIEW_STARTS_PER_HOUR; i++) expect((await start(address)).statusCode).toBe(200);
    const refused = await start(address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/preview quizzes within an hour/);
    expect(refused.json().nextAttemptAt).toEqual(expect.any(String));
    expect((await start(visitor())).statusCode).toBe(200);
  });
});
