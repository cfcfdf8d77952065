import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PASS_MARK } from "#shared/constants.ts";
import { expectFocused, tabTo } from "./focus.ts";
import { expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();

async function press(page: Page, key: string) {
  await page.keyboard.press(key);
}

describe("keyboard only", () => {
  it("signs up with an error, then successfully", async () => {
    const page = await e2e.newPage();
    await page.goto("/login?tab=signup");
    const main = page.locator("main");
    await main.getByRole("tab", { name: "Sign Up", selected: true }).waitFor();

    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Enter");
    await expectFocused(main, "the main content");
    await press(page, "Tab");
    await expectFocused(page.getByRole("tab", { name: "Sign Up" }), "the Sign Up tab");
    // The tab panel is not a Tab stop of its own: the next stop is its first field.
    await press(page, "Tab");
    const firstName = page.getByLabel("First name");
    await expectFocused(firstName, "First name");
    await page.keyboard.type("Grace");
    await press(page, "Tab");
    await expectFocused(page.getByLabel("Last name"), "Last name");
    await page.keyboard.type("Hopper");
    await press(page, "Tab");
    const email = main.getByLabel("Email");
    await expectFocused(email, "Email");
    await page.keyboard.type(`grace-${Date.now()}@example.com`);
    await press(page, "Tab");
    const password = main.getByLabel("Password", { exact: true });
    await expectFocused(password, "Password");
    // One of the most common passwords: the server refuses it.
    await page.keyboard.type("password");
    await press(page, "Tab");
    await expectFocused(page.getByRole("button", { name: "Show password" }), "Show password");
    await press(page, "Tab");
    await expectFocused(page.getByRole("button", { name: "Create Account" }), "Create Account");
    await press(page, "Enter");

    // The error is read out by the form, and focus goes to the field to fix.
    const alert = main.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/most common passwords/i);
    await expectFocused(password, "Password, after the error");
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    expect(await password.getAttribute("aria-describedby")).toContain(await alert.getAttribute("id"));
    expect(await email.getAttribute("aria-invalid")).toBeNull();
    expect(await firstName.getAttribute("aria-invalid")).toBeNull();
    await expectAccessible(page, "sign-up error");

    await press(page, "ControlOrMeta+a");
    await page.keyboard.type("compiler-bugs-1947");
    await press(page, "Enter");
    // Success: signed in at once; the form says so and the app goes on to the dashboard.
    const status = main.getByRole("status").filter({ hasText: "Redirecting you to the dashboard" });
    await status.waitFor();
    expect(await main.getByRole("alert").count()).toBe(0);
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("reads a lesson, marks it complete, takes its quiz and reaches the result", async () => {
    const page = await e2e.newPage();
    const email = `kb-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Kay", lastName: "Board", email, password: "tab-order-2024" });
    await e2e.enrol(email, "fixture-basics");

    await page.goto("/course/fixture-basics/lesson/alpha-two");
    const main = page.locator("main");
    await page.getByRole("heading", { name: "Lesson alpha-two", level: 1 }).waitFor();
    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Enter");
    await expectFocused(main, "the main content");

    const markComplete = main.getByRole("button", { name: "Mark complete" });
    await tabTo(page, markComplete, "Mark complete");
    await press(page, "Enter");
    const completed = main.getByRole("button", { name: "Lesson completed" });
    await completed.waitFor();
    await expectFocused(completed, "the same button, now Lesson completed");
    // The change is announced, not only the button's new name.
    const status = page.getByTestId("lesson-complete-status");
    expect(await status.getAttribute("role")).toBe("status");
    expect(await status.innerText()).toMatch(/^Lesson marked complete\. Course progress: \d+%\.$/);

    await tabTo(page, main.getByRole("button", { name: "Next" }), "Next");
    await press(page, "Enter");
    const quizHeading = page.getByRole("heading", { name: "Quiz alpha", level: 1 });
    await expectFocused(quizHeading, "the quiz heading after the route change");

    const total = 5;
    for (let n = 1; n <= total; n++) {
      expect(await page.getByTestId("question-position").innerText()).toBe(`Question ${n} of ${total}`);
      expect(await page.getByTestId("question-position").getAttribute("aria-live")).toBe("polite");
      // Options are shuffled per attempt: the first in reading order is where Tab enters the group.
      const firstOption = main.getByRole("radio").first();
      await tabTo(page, firstOption, `question ${n}'s first option`, 3);
      await press(page, "Space");
      expect(await firstOption.getAttribute("aria-checked")).toBe("true");
      const last = n === total;
      if (n === 2) {
        // Flag this one: the review step lists it.
        const flag = main.getByRole("button", { name: "Flag for review" });
        await tabTo(page, flag, "Flag for review", 3);
        await press(page, "Space");
        expect(await flag.getAttribute("aria-pressed")).toBe("true");
      }
      const forward = main.getByRole("button", { name: last ? "Review Answers" : "Next" });
      await tabTo(page, forward, last ? "Review Answers" : "Next", 4);
      await press(page, "Enter");
      if (!last)
        await expectFocused(
          main.getByRole("heading", { name: /^Question \d+ of alpha\?$/, level: 2 }),
          `question ${n + 1}`,
        );
    }
    // The review step: every question's state, a way back to each, then the final Submit.
    await expectFocused(main.getByRole("heading", { name: "Review your answers", level: 2 }), "the review step");
    expect(await page.getByTestId("review-summary").innerText()).toMatch(
      /^All 5 questions answered\. 1 flagged for review\./,
    );
    await tabTo(page, main.getByRole("button", { name: "Go to question 2" }), "Go to question 2", 3);
    await press(page, "Enter");
    await expectFocused(main.getByRole("heading", { name: /^Question \d+ of alpha\?$/, level: 2 }), "question 2");
    expect(await page.getByTestId("question-position").innerText()).toBe("Question 2 of 5");
    await tabTo(page, main.getByRole("button", { name: "Back to Review" }), "Back to Review", 8);
    await press(page, "Enter");
    await expectFocused(main.getByRole("heading", { name: "Review your answers", level: 2 }), "the review step again");
    await tabTo(page, main.getByRole("button", { name: "Submit Quiz" }), "Submit Quiz", 10);
    await press(page, "Enter");
    const result = page.getByRole("heading", { name: "Quiz Complete!", level: 1 });
    await expectFocused(result, "the result heading");
    expect(await page.getByTestId("quiz-score").innerText()).toMatch(/^\d+%$/);
    expect(await page.getByText("Your score", { exact: true }).isVisible()).toBe(true);
    // Each option is read once: by the radio's name, not again as loose text.
    await expectAccessible(page, "quiz result");

    // Answers are the first option in a shuffled order, so about one run in sixty passes (4 of 5 right):
    // a pass offers the next step instead of a retake, and the retake below needs a fail.
    if (Number.parseInt(await page.getByTestId("quiz-score").innerText(), 10) >= PASS_MARK) {
      expect(await main.getByRole("button", { name: "Retake Quiz" }).count()).toBe(0);
      return;
    }
    // Retaking starts a new draw and puts focus on its first question.
    const retake = main.getByRole("button", { name: "Retake Quiz" });
    await tabTo(page, retake, "Retake Quiz", 20);
    await press(page, "Enter");
    await expectFocused(
      main.getByRole("heading", { name: /^Question \d+ of alpha\?$/, level: 2 }),
      "the retake's first question",
    );
    expect(await page.getByTestId("question-position").innerText()).toBe(`Question 1 of ${total}`);
  });

  it("closes the mobile menu with Escape and returns focus to its toggle", async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Tab");
    await expectFocused(page.getByRole("banner").getByRole("link").first(), "the logo");
    await press(page, "Tab");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expectFocused(toggle, "the menu toggle");
    await press(page, "Enter");
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await mobile.waitFor();
    await expectFocused(page.getByRole("button", { name: "Close menu" }), "the toggle, now Close menu");
    await press(page, "Tab");
    await expectFocused(mobile.getByRole("link").first(), "the first menu link");
    await press(page, "Escape");
    await mobile.waitFor({ state: "detached" });
    await expectFocused(page.getByRole("button", { name: "Open menu" }), "the menu toggle after Escape");
    expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
  });

  it("closes an error toast after 5 s, holds it while focused, then puts focus back where it was", async () => {
    const page = await e2e.newPage();
    await page.goto("/login");
    const main = page.locator("main");
    await main.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Enter");
    const email = main.getByLabel("Email");
    await tabTo(page, email, "Email");
    await page.keyboard.type("nobody@example.com");
    await tabTo(page, main.getByLabel("Password", { exact: true }), "Password");
    await page.keyboard.type("wrong-password-1");
    await press(page, "Enter");
    const toast = page.getByTestId("toast");
    await toast.getByText("Sign In Failed").waitFor();
    // Spec: every toast closes after 5000 ms, errors too (they also show inline).
    await toast.waitFor({ state: "detached", timeout: 12_000 });

    await press(page, "Enter");
    await toast.getByText("Sign In Failed").waitFor();
    const focusedBefore = await page.evaluate(
      () => document.activeElement?.getAttribute("name") ?? document.activeElement?.id,
    );
    // F8 is the toast region's hotkey; from there Tab reaches Close.
    await press(page, "F8");
    const close = toast.getByRole("button", { name: "Close notification" });
    for (let stop = 0; stop < 3; stop++) {
      if (await close.evaluate((el) => el === document.activeElement)) break;
      await press(page, "Tab");
    }
    await expectFocused(close, "the toast's Close button");
    // While the toast holds focus its timer waits (WCAG 2.2.1): still there past the five seconds.
    await page.waitForTimeout(5_500);
    expect(await toast.isVisible()).toBe(true);
    await press(page, "Enter");
    await toast.waitFor({ state: "detached" });
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.id ?? null),
      )
      .toBe(focusedBefore);
    expect(focusedBefore, "focus was on a sign-in field before the toast").toBeTruthy();
  });
});
