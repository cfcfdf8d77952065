import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectFocused } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, useE2E } from "./harness.ts";
import { expectNoSideScrollAt200, setTextSize200 } from "./large-text.ts";

const e2e = useE2E();

/** Focus is on a control of the page, never on the body, after an action. */
async function expectFocusKept(page: Page, after: string) {
  const active = await page.evaluate(() => document.activeElement?.tagName ?? "none");
  expect(active, `focus after ${after}`).not.toBe("BODY");
}

/** Focuses a control as Tab would reach it, then types into it. */
async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

async function press(page: Page, name: string, key = "Enter") {
  await page.getByRole("button", { name, exact: true }).focus();
  await page.keyboard.press(key);
  await expectFocusKept(page, name);
}

async function openSection(page: Page, name: string) {
  const link = page.getByRole("navigation", { name: "Course sections" }).getByRole("link", { name, exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
  await expectFocused(page.getByRole("heading", { level: 1, name }), `the ${name} heading`);
  await expectAccessible(page, `studio ${name}`);
}

describe("the course studio by keyboard", () => {
  it("an admin creates a course, edits its settings, builds an outline and sees what blocks publishing", async () => {
    const owner = await createAccount(e2e, { firstName: "Olive", lastName: "Owner" });
    await e2e.testDb.database.db.updateTable("user").set({ role: "admin" }).where("email", "=", owner.email).execute();
    const page = await e2e.newPage();
    await signInInBrowser(page, owner.email, owner.password);
    const studio = page.getByRole("link", { name: "Studio", exact: true });
    await studio.first().focus();
    await page.keyboard.press("Enter");
    await expectFocused(page.getByRole("heading", { level: 1, name: "Studio" }), "the studio's heading");
    await page.getByRole("link", { name: "Fixture Basics" }).waitFor();
    await expectAccessible(page, "studio home");

    // The slug is checked as it is typed.
    await typeInto(page, "Title", "Breath Work");
    await typeInto(page, "Slug", "fixture-basics");
    await page.getByText("A course already uses “fixture-basics”: choose another.").waitFor();
    await typeInto(page, "Slug", "Breath");
    await page.getByText("Use only lowercase letters, digits and single hyphens between them.").waitFor();
    await typeInto(page, "Slug", "breath-work");
    await page.getByText("“breath-work” is free.").waitFor();
    await page.keyboard.press("Enter");
    await expectFocused(page.getByRole("heading", { level: 1, name: "Settings" }), "the settings heading");
    expect(new URL(page.url()).pathname).toBe("/studio/courses/breath-work/settings");
    await expectAccessible(page, "studio settings");

    // Settings: a wrong price is refused by its field; the card preview follows the form.
    await typeInto(page, "Price (US dollars)", "forty");
    await press(page, "Save settings");
    await page.getByText("Enter the price in dollars, like 49 or 49.99.").waitFor();
    await expectFocused(page.getByLabel("Price (US dollars)"), "the price field");
    await typeInto(page, "Price (US dollars)", "49.5");
    const card = page.getByTestId("course-card-breath-work");
    await card.getByText("$49.50").waitFor();
    await press(page, "Add outcome");
    await expectFocused(page.getByLabel("Outcome 2", { exact: true }), "the new outcome");
    await page.keyboard.type("Breathe with the diaphragm");
    await press(page, "Move outcome 2 up");
    expect(await page.getByLabel("Outcome 1", { exact: true }).inputValue()).toBe("Breathe with the diaphragm");
    await typeInto(page, "Description", "Breathing for calm, one practice at a time.");
    await press(page, "Save settings");
    await page.getByText(/Saved \(revision 2\)/).waitFor();
    await card.getByText("Breathing for calm, one practice at a time.").waitFor();

    // Outline: two modules with lessons; one lesson moved by its button, one by the keyboard sensor.
    await openSection(page, "Outline");
    await typeInto(page, "New module", "Foundations");
    await page.keyboard.press("Enter");
    await typeInto(page, "New module", "Daily practice");
    await page.keyboard.press("Enter");
    await typeInto(page, "New lesson in module 1", "The diaphragm");
    await page.keyboard.press("Enter");
    await typeInto(page, "New lesson in module 1", "Box breathing");
    await page.keyboard.press("Enter");
    await typeInto(page, "New lesson in module 2", "Morning routine");
    await page.keyboard.press("Enter");
    const announcer = page.locator("#outline-announcement");
    await expect
      .poll(() => announcer.innerText())
      .toBe("Morning routine added at position 1 of 1 in module 2, Daily practice.");

    await press(page, "Move Box breathing down");
    await expect
      .poll(() => announcer.innerText())
      .toBe("Box breathing moved to position 1 of 2 in module 2, Daily practice.");
    await expectFocused(page.getByRole("button", { name: "Move Box breathing down" }), "the moved lesson's button");

    // dnd-kit's keyboard sensor: Space picks the handle up, an arrow moves it, Space drops it.
    await page.getByRole("button", { name: "Reorder Morning routine" }).focus();
    await page.keyboard.press("Space");
    await expect
      .poll(() => page.getByRole("button", { name: "Reorder Morning routine" }).getAttribute("aria-pressed"))
      .toBe("true");
    await page.keyboard.press("ArrowUp");
    await page.getByText("Morning routine is over Box breathing.").waitFor({ state: "attached" });
    await page.keyboard.press("Space");
    await expect
      .poll(() => announcer.innerText())
      .toBe("Morning routine moved to position 1 of 2 in module 2, Daily practice.");
    await expectFocusKept(page, "the keyboard drag");
    const module2 = page.getByRole("list", { name: "Lessons of module 2" });
    expect(
      await module2.getByRole("textbox").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).toEqual(["Morning routine", "Box breathing"]);
    await press(page, "Save outline");
    await page.getByText(/Saved \(revision 3\)/).waitFor();
    await expectAccessible(page, "studio outline with two modules");

    // The editors' sections are there, each reachable and clean.
    for (const name of ["Lessons", "Question banks", "Exam", "Practical", "Preview"]) await openSection(page, name);

    // Publish: the draft's failed checks, each with a link to where it is fixed.
    await openSection(page, "Publish");
    const checks = page.getByRole("region", { name: /before publishing/ });
    await checks.waitFor();
    expect(await checks.getByRole("link").count()).toBeGreaterThan(0);
    await typeInto(page, "Change note (learners read it on the course page)", "First version");
    await press(page, "Publish as minor");
    await expectFocused(page.getByRole("heading", { name: /before publishing/ }), "the failed checks");
    const fix = checks.getByRole("link").first();
    const fixName = (await fix.innerText()).replace("Fix in ", "");
    await fix.focus();
    await page.keyboard.press("Enter");
    await expectFocused(page.getByRole("heading", { level: 1, name: fixName }), `the ${fixName} section`);

    await openSection(page, "Versions");
    await page.getByText("Nothing is published yet: learners cannot see this course.").waitFor();
    await openSection(page, "Settings");
    expect(await page.getByLabel("Outcome 1", { exact: true }).inputValue()).toBe("Breathe with the diaphragm");
  });

  it("every studio page fits a 390 px phone at 200% text without sideways scrolling", async () => {
    const owner = await createAccount(e2e, { firstName: "Pat", lastName: "Phone" });
    await e2e.testDb.database.db.updateTable("user").set({ role: "admin" }).where("email", "=", owner.email).execute();
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await signInInBrowser(page, owner.email, owner.password);
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
    await setTextSize200(page);
    await page.goto("/studio");
    await page.getByRole("link", { name: "Fixture Basics" }).waitFor();
    await expectNoSideScrollAt200(page, "studio home");
    for (const [section, heading] of [
      ["settings", "Settings"],
      ["outline", "Outline"],
      ["publish", "Publish"],
      ["versions", "Versions"],
    ]) {
      await page.goto(`/studio/courses/fixture-basics/${section}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.getByRole("button").last().waitFor();
      await expectNoSideScrollAt200(page, `studio ${section}`);
    }
  });

  it("a settings save overtaken by another author's shows both and loses nothing", async () => {
    const owner = await createAccount(e2e, { firstName: "Sam", lastName: "Second" });
    await e2e.testDb.database.db.updateTable("user").set({ role: "admin" }).where("email", "=", owner.email).execute();
    const first = await e2e.newPage();
    const second = await e2e.newPage();
    for (const page of [first, second]) {
      await signInInBrowser(page, owner.email, owner.password);
      await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
      await page.goto("/studio/courses/fixture-other/settings");
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    }
    await typeInto(first, "Title", "Title from the first tab");
    await press(first, "Save settings");
    await first.getByText(/Saved \(revision/).waitFor();

    await typeInto(second, "Description", "A description only the second tab wrote.");
    await press(second, "Save settings");
    const notice = second.getByRole("region", { name: /Someone else saved this draft/ });
    await expectFocused(notice.getByRole("heading"), "the stale-save notice");
    expect(await notice.innerText()).toContain("Theirs: Title from the first tab");
    expect(await notice.innerText()).toContain("Yours: A description only the second tab wrote.");
    expect(await second.getByLabel("Description", { exact: true }).inputValue()).toBe(
      "A description only the second tab wrote.",
    );
    await expectAccessible(second, "the stale-save notice");
    await press(second, "Save mine over theirs");
    await second.getByText(/Saved \(revision/).waitFor();
    await expectFocusKept(second, "saving over theirs");
    expect(await notice.count()).toBe(0);
    expect(await second.getByLabel("Description", { exact: true }).inputValue()).toBe(
      "A description only the second tab wrote.",
    );
  });

  it("learners do not see the studio and get the refusal page there", async () => {
    const learner = await createAccount(e2e);
    const page = await e2e.newPage();
    await signInInBrowser(page, learner.email, learner.password);
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
    expect(await page.getByRole("link", { name: "Studio", exact: true }).count()).toBe(0);
    await page.goto("/studio");
    await page.getByRole("heading", { name: "403 Access Denied" }).waitFor();
  });
});
