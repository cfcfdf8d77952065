import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectFocused } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();
const PHONE = { width: 390, height: 844 };

/** An enrolled learner, signed in on a fresh page. */
async function enrolledLearner(viewport?: { width: number; height: number }) {
  const user = await createAccount(e2e);
  await e2e.enrol(user.email, "fixture-basics");
  const page = await e2e.newPage({ viewport });
  await signInInBrowser(page, user.email, user.password);
  await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
  return page;
}

const completeLesson = (page: Page, lessonId: string) =>
  page.evaluate(
    async (id) => (await fetch(`/api/progress/fixture-basics/lessons/${id}/complete`, { method: "POST" })).status,
    lessonId,
  );

const isFocusedIn = (page: Page, selector: string) =>
  page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);

describe("the course player", () => {
  it("resumes at the next step in one click, and the outline beside the lesson marks where the learner is", async () => {
    const page = await enrolledLearner();
    await page.goto("/course/fixture-basics");
    const resume = page.getByTestId("resume");
    expect(await resume.innerText()).toBe("Start: Lesson alpha-one");

    expect(await completeLesson(page, "alpha-one")).toBe(200);
    await page.reload();
    await page.getByText("Resume: Lesson alpha-two").waitFor();
    // The first action, above the learning outcomes.
    const before = await resume.evaluate((el) => {
      const outcomes = document.getElementById("outcomes-heading");
      return !!outcomes && !!(el.compareDocumentPosition(outcomes) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(before).toBe(true);
    await expectAccessible(page, "course page with Resume");
    await resume.click();
    await page.getByRole("heading", { name: "Lesson alpha-two", level: 1 }).waitFor();

    const outline = page.getByRole("navigation", { name: "Course outline" });
    const current = outline.locator('[aria-current="page"]');
    expect(await current.innerText()).toContain("Lesson alpha-two");
    expect(await outline.getByRole("link", { name: /Lesson alpha-one \(done\)/ }).count()).toBe(1);
    expect(await outline.getByText("Lesson beta-one (locked)").count()).toBe(1);
    expect(await outline.getByRole("link", { name: /beta-one/ }).count()).toBe(0);
    await expectAccessible(page, "lesson with the outline sidebar");

    // Keys only: from the lesson heading, Tab reaches the outline after the lesson, and Enter follows a link.
    await page.getByRole("heading", { level: 1 }).focus();
    const alphaOne = outline.getByRole("link", { name: /Lesson alpha-one/ });
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await alphaOne.evaluate((el) => el === document.activeElement);
    }
    expect(reached, "the outline's links are reachable with Tab").toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Lesson alpha-one", level: 1 }).waitFor();
    expect(await outline.locator('[aria-current="page"]').innerText()).toContain("Lesson alpha-one");

    // Both lessons done: the module's quiz is due next.
    expect(await completeLesson(page, "alpha-two")).toBe(200);
    await page.goto("/course/fixture-basics");
    await page.getByText("Resume: Quiz alpha").waitFor();
  });

  it("opens the outline on a phone as a drawer that keeps focus inside and closes with Escape", async () => {
    const page = await enrolledLearner(PHONE);
    await page.goto("/course/fixture-basics/lesson/alpha-two");
    await page.getByRole("heading", { name: "Lesson alpha-two", level: 1 }).waitFor();
    expect(await page.getByRole("navigation", { name: "Course outline" }).count(), "no sidebar on a phone").toBe(0);

    const trigger = page.getByRole("button", { name: "Course outline" });
    await page.getByRole("heading", { level: 1 }).focus();
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Shift+Tab");
      reached = await trigger.evaluate((el) => el === document.activeElement);
    }
    expect(reached, "the outline button is reachable with the keyboard").toBe(true);
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Course outline" });
    await drawer.waitFor();
    await expect.poll(() => isFocusedIn(page, '[role="dialog"]')).toBe(true);
    expect(await drawer.locator('[aria-current="page"]').innerText()).toContain("Lesson alpha-two");
    await expectAccessible(page, "outline drawer");
    // Focus stays in the drawer, however far one tabs, forwards or back.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i < 8 ? "Tab" : "Shift+Tab");
      expect(await isFocusedIn(page, '[role="dialog"]'), `Tab stop ${i + 1} inside the drawer`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await expectFocused(trigger, "the outline button after Escape");

    // A link in the drawer goes to its lesson and closes the drawer.
    await page.keyboard.press("Enter");
    await drawer.waitFor();
    const alphaOne = drawer.getByRole("link", { name: /Lesson alpha-one/ });
    reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await alphaOne.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Lesson alpha-one", level: 1 }).waitFor();
    await drawer.waitFor({ state: "detached" });
  });

  it("at 390 px, a wide table scrolls inside its own labelled region, the page never sideways, and the lesson does not shift as it loads", async () => {
    const page = await enrolledLearner(PHONE);
    // The course's details arrive after the lesson and after the page has painted it, as on a slow line.
    let lessonArrived!: () => void;
    const lessonPainted = new Promise<void>((done) => {
      lessonArrived = done;
    });
    page.on("response", (response) => {
      if (response.url().endsWith("/api/courses/fixture-basics/lessons/alpha-two")) lessonArrived();
    });
    await page.route("**/api/courses/fixture-basics", async (route) => {
      await lessonPainted;
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await route.continue();
    });
    await page.goto("/course/fixture-basics/lesson/alpha-two");
    await page.getByRole("heading", { name: "Lesson alpha-two", level: 1 }).waitFor();
    const region = page.getByRole("region", { name: "Table 1 (scrolls sideways)" });
    await region.locator("table").waitFor();
    await page.getByRole("button", { name: "Course outline" }).and(page.locator(":enabled")).waitFor();
    await page.waitForLoadState("networkidle");

    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.page, "no page-level horizontal scroll").toBeLessThanOrEqual(widths.viewport);
    const scrolls = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(scrolls, "the table is wider than the phone and scrolls in its region").toBe(true);
    expect(await region.getAttribute("tabindex")).toBe("0");

    const cls = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          requestAnimationFrame(() => requestAnimationFrame(() => done(total)));
        }),
    );
    expect(cls, "cumulative layout shift while the lesson loads").toBeLessThan(0.05);
    await expectAccessible(page, "lesson with a wide table at 390 px");
  });

  it("checkout for a coming-soon course says so and links back instead of failing", async () => {
    const page = await enrolledLearner();
    await page.goto("/checkout/fixture-soon");
    await page.getByText("Fixture Soon is coming soon").waitFor();
    expect(await page.getByText("Failed to create payment intent").count()).toBe(0);
    // Nothing to pay for: no coupon field, no total.
    expect(await page.getByLabel("Coupon code").count()).toBe(0);
    expect(await page.getByTestId("order-total").count()).toBe(0);
    await expectAccessible(page, "coming-soon checkout");
    await page.getByRole("link", { name: "Back to the course page" }).click();
    await page.waitForURL("**/course/fixture-soon");
  });
});
