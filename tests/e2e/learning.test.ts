import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createEnrollment } from "#server/modules/enrollments/enrollments.repository.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();

async function answerQuiz(page: Page, answers: string[]) {
  for (const [i, text] of answers.entries()) {
    await page.getByText(`Question ${i + 1} of ${answers.length}`).waitFor();
    const next = page.getByRole("button", { name: i === answers.length - 1 ? "Submit Quiz" : "Next" });
    expect(await next.isDisabled()).toBe(true);
    await page.getByRole("radio", { name: text }).click();
    await next.click();
  }
}

describe("visitor preview", () => {
  it("opens a course page, reads lesson 1, and gets 'Preview Mode Only' on lesson 2", async () => {
    const page = await e2e.newPage();
    await page.goto("/course/fixture-basics");
    await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
    await page.getByText("Course Preview Mode").waitFor();
    await page.getByRole("link", { name: "Purchase - $20.00" }).waitFor();
    expect(await page.getByTestId("module-alpha").innerText()).toContain("In Progress");
    expect(await page.getByTestId("module-beta").innerText()).toContain("Locked");
    expect(await page.getByText("Preview mode only - purchase to unlock").count()).toBeGreaterThan(0);
    expect(await page.title()).toBe("Fixture Basics | Fixture");
    expect(await page.locator('meta[name="keywords"]').getAttribute("content")).toBe("fixture, test");
    await expectAccessible(page, "course preview");

    await page.getByRole("link", { name: /Lesson alpha-one/ }).click();
    await page.getByRole("heading", { name: "Lesson alpha-one" }).waitFor();
    expect(await page.locator("article").innerText()).toContain("This is the body of lesson alpha-one.");
    expect(await page.getByRole("navigation", { name: "Breadcrumb" }).innerText()).toContain("Lesson 1");
    expect(await page.getByRole("progressbar", { name: "Position in course" }).getAttribute("aria-valuenow")).toBe(
      "20",
    );
    await expectAccessible(page, "lesson");

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Preview Mode Only" }).waitFor();
    expect(await page.locator("main").innerText()).toContain(
      "You can only access the first lesson in preview mode. Purchase the course to unlock all content.",
    );
    expect(await page.getByRole("link", { name: "Purchase Course - $20" }).getAttribute("href")).toBe(
      "/checkout/fixture-basics",
    );
    await page.getByRole("link", { name: "Back to Course" }).waitFor();
    await expectAccessible(page, "preview only");

    await page.goto("/course/fixture-basics/quiz/beta");
    await page.getByRole("heading", { name: "Quiz Access Restricted" }).waitFor();
    await page.goto("/course/fixture-basics/quiz/nope");
    await page.getByRole("heading", { name: "Quiz Not Found" }).waitFor();
    await page.goto("/course/fixture-basics/lesson/nope");
    await page.getByRole("heading", { name: "Lesson Not Found" }).waitFor();
    await page.goto("/course/nope");
    await page.getByRole("heading", { name: "Course Not Found" }).waitFor();
    await page.getByRole("link", { name: "Back to Courses" }).waitFor();
  });
});

describe("signed-in catalogue", () => {
  it("shows coming soon, enrolled and not-enrolled cards", async () => {
    const page = await e2e.newPage();
    const email = `cat-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Cat", lastName: "Alogue", email, password: "paper-kite-55" });
    const user = await e2e.testDb.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    await createEnrollment(e2e.testDb.database.db, { userId: user.id, courseId: "fixture-other", source: "fixture" });
    await page.reload();
    const soon = page.getByTestId("course-card-fixture-soon");
    await soon.getByRole("button", { name: "Course Coming Soon" }).waitFor();
    expect(await soon.getByRole("button", { name: "Course Coming Soon" }).isDisabled()).toBe(true);
    expect(await soon.innerText()).toContain("This course is currently being developed with comprehensive content");
    expect(await soon.innerText()).toContain("Coming Soon");
    await page.getByTestId("course-card-fixture-other").getByRole("link", { name: "Continue Course" }).waitFor();
    const open = page.getByTestId("course-card-fixture-basics");
    await open.getByRole("link", { name: "Preview Course Content" }).waitFor();
    expect(await open.getByRole("link", { name: "Buy Now - $20.00" }).getAttribute("href")).toBe(
      "/checkout/fixture-basics",
    );
    expect(await page.title()).toContain("Holistic Wellness Coach Certification Programs");
    await expectAccessible(page, "catalogue with three card states");
  });
});

describe("learning loop", () => {
  it("goes through every lesson and quiz: fails, retakes, passes, unlocks, and reaches 'Ready for Certification!'", async () => {
    const page = await e2e.newPage();
    const email = `learner-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Lena", lastName: "Learner", email, password: "tidal-pool-63" });
    const user = await e2e.testDb.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    await createEnrollment(e2e.testDb.database.db, { userId: user.id, courseId: "fixture-basics", source: "fixture" });

    await page.goto("/my-learning");
    await page.getByTestId("in-progress-fixture-basics").waitFor();
    expect(await page.getByTestId("in-progress-fixture-basics").innerText()).toContain("0 of 5 lessons");
    await expectAccessible(page, "my learning");

    await page.goto("/course/fixture-basics");
    await page.getByRole("link", { name: /Lesson alpha-one/ }).click();
    await page.getByRole("heading", { name: "Lesson alpha-one" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Lesson alpha-two" }).waitFor();
    await page.getByRole("button", { name: "Mark complete" }).click();
    await page.getByText("Lesson completed").waitFor();
    await page.goto("/course/fixture-basics");
    expect(await page.getByTestId("module-beta").innerText()).toContain("Locked");
    await page.getByRole("link", { name: /Lesson alpha-two/ }).click();
    await page.getByRole("heading", { name: "Lesson alpha-two" }).waitFor();

    // At the end of the module Next leads to its quiz. Fail it first: 3 of 5.
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Quiz alpha" }).waitFor();
    await answerQuiz(page, ["Option b", "Option a", "Option c", "Option d", "Option a"]);
    await page.getByRole("heading", { name: "Quiz Complete!" }).waitFor();
    expect(await page.getByTestId("quiz-score").innerText()).toBe("60%");
    await toastText(page).getByText("Quiz Completed!").waitFor();
    expect(await toastText(page).innerText()).toContain("You scored 60%");
    expect(await page.locator("main").innerText()).not.toContain("Correct answer:");
    await expectAccessible(page, "failed quiz result");

    // Retake from the keyboard and pass: 5 of 5.
    await page.getByRole("button", { name: "Retake Quiz" }).click();
    for (const [i, letter] of ["a", "b", "c", "d", "a"].entries()) {
      await page.getByText(`Question ${i + 1} of 5`).waitFor();
      await page.getByRole("radio", { name: `Option ${letter}` }).focus();
      await page.keyboard.press("Space");
      expect(await page.getByRole("radio", { name: `Option ${letter}` }).getAttribute("aria-checked")).toBe("true");
      await page.getByRole("button", { name: i === 4 ? "Submit Quiz" : "Next" }).focus();
      await page.keyboard.press("Enter");
    }
    await page.getByRole("heading", { name: "Quiz Complete!" }).waitFor();
    expect(await page.getByTestId("quiz-score").innerText()).toBe("100%");
    expect(await page.locator("main").innerText()).toContain("Because a is right.");
    await page.getByRole("link", { name: "Continue to Next Module" }).click();
    await page.getByRole("heading", { name: "Lesson beta-one" }).waitFor();

    // The quiz now offers a retake of the earlier result.
    await page.goto("/course/fixture-basics/quiz/alpha");
    await page
      .getByText("You have already completed this quiz with a score of 100%. Would you like to retake it?")
      .waitFor();
    await page.getByRole("button", { name: "Retake Quiz" }).waitFor();

    await page.goto("/course/fixture-basics");
    expect(await page.getByTestId("module-alpha").innerText()).toContain("Complete");
    expect(await page.getByTestId("module-beta").innerText()).toContain("In Progress");
    await page.goto("/my-learning");
    expect(await page.getByTestId("in-progress-fixture-basics").innerText()).toContain("2 of 5 lessons");

    for (const id of ["beta-one", "beta-two"]) {
      await page.goto(`/course/fixture-basics/lesson/${id}`);
      await page.getByRole("button", { name: "Mark complete" }).click();
      await page.getByText("Lesson completed").waitFor();
    }
    await page.goto("/course/fixture-basics/quiz/beta");
    await answerQuiz(page, ["Option b", "Option c", "Option d", "Option a", "Option b"]);
    await page.getByRole("heading", { name: "Quiz Complete!" }).waitFor();
    await page.getByRole("link", { name: "Continue to Next Module" }).click();
    await page.getByRole("heading", { name: "Lesson gamma-one" }).waitFor();
    await page.getByRole("button", { name: "Back to Course" }).click();
    await page.getByText("Ready for Certification!").waitFor();
    expect(await page.getByRole("progressbar", { name: "Course progress" }).getAttribute("aria-valuenow")).toBe("100");
    await page.getByRole("button", { name: "Get Certificate" }).waitFor();
    await expectAccessible(page, "ready for certification");
  });
});
