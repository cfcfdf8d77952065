import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextStepAfterQuiz } from "#client/features/learning/next-step.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";
import { createTestApp, request, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const detail = async (id: string) => (await request(t.app, "GET", `/api/courses/${id}`)).json() as CourseDetail;

// The quiz result's way on, computed from the course page's own data as the server sends it.
describe("after a passed module quiz", () => {
  it("leads to the next module's first lesson", async () => {
    expect(nextStepAfterQuiz(await detail("fixture-basics"), { nextModuleId: "beta" })).toEqual({
      href: "/course/fixture-basics/lesson/beta-one",
      label: "Continue to Next Module",
    });
  });

  it("on the last module leads to the final exam when the course has one", async () => {
    expect(nextStepAfterQuiz(await detail("fixture-basics"), { nextModuleId: null })).toEqual({
      href: "/course/fixture-basics/exam",
      label: "Continue to Final Exam",
    });
  });

  it("on the last module of a course without an exam offers no step on, only Back to Course", async () => {
    const other = await detail("fixture-other");
    expect(other.exam).toBeNull();
    expect(nextStepAfterQuiz(other, { nextModuleId: null })).toBeNull();
  });
});
