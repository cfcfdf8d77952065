import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CourseDocument } from "#shared/schemas/studio.ts";
import { expectFocused } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();
const COURSE = "fixture-basics";
const FIGURE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100"><rect width="200" height="100" fill="#0a7"/></svg>';

async function signedInAuthor(): Promise<Page> {
  const account = await createAccount(e2e, { firstName: "Ada", lastName: "Author" });
  await e2e.testDb.database.db
    .updateTable("user")
    .set({ role: "admin", emailVerified: true })
    .where("email", "=", account.email)
    .execute();
  const page = await e2e.newPage();
  await signInInBrowser(page, account.email, account.password);
  await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
  return page;
}

async function draftDocument(): Promise<CourseDocument> {
  const row = await e2e.testDb.database.db
    .selectFrom("courseDraft")
    .select("document")
    .where("courseId", "=", COURSE)
    .executeTakeFirst();
  if (!row) throw new Error("no draft");
  return JSON.parse(row.document) as CourseDocument;
}
const bodyOf = (document: CourseDocument, lessonId: string) =>
  document.modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId)?.body ?? "";

/** Moves along the toolbar with the arrow keys to the named button. */
async function toolbarTo(page: Page, name: string) {
  const toolbar = page.getByRole("toolbar", { name: "Formatting" });
  const target = toolbar.getByRole("button", { name, exact: true });
  for (let i = 0; i < 20; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("ArrowRight");
  }
  await expectFocused(target, name);
}

describe("the lesson editor", () => {
  it("writes a lesson with a table and a figure by keyboard, autosaves it, and passes axe", async () => {
    const page = await signedInAuthor();
    await page.goto(`/studio/courses/${COURSE}/lessons/alpha-two`);
    const text = page.getByRole("textbox", { name: "Lesson text" });
    await text.waitFor();
    await expectAccessible(page, "lesson editor");

    await text.focus();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Energy per gram of each nutrient:");
    await page.keyboard.press("Enter");
    // Shift+Tab from the text reaches the toolbar, whose buttons take the arrow keys.
    await page.keyboard.press("Shift+Tab");
    await expectFocused(page.getByRole("toolbar").getByRole("button").first(), "the toolbar's first button");
    await toolbarTo(page, "Insert table");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Nutrient");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Calories per gram");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Fat");
    await page.keyboard.press("Tab");
    await page.keyboard.type("9");
    const status = page.getByRole("status").filter({ hasText: /Saved|Saving|Unsaved|Not saved/ });
    await status.getByText("Saved", { exact: true }).waitFor();
    await expect
      .poll(async () => bodyOf(await draftDocument(), "alpha-two"))
      .toMatch(/\| Nutrient\s*\| Calories per gram\s*\|/);

    // The table's own buttons, reached with Alt+F10 from the cell: a column and a row added, then deleted.
    const table = text.locator("table").last();
    const shape = () =>
      table.evaluate((el) => [el.querySelectorAll("tr").length, el.querySelector("tr")?.children.length ?? 0]);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await page.keyboard.press("Alt+F10");
    await expectFocused(toolbar.locator('[tabindex="0"]'), "the toolbar, by Alt+F10");
    await toolbarTo(page, "Add table column to the right");
    await page.keyboard.press("Enter");
    await expect.poll(shape).toEqual([3, 4]);
    await expectFocused(toolbar.getByRole("button", { name: "Add table column to the right" }), "the button pressed");
    await toolbarTo(page, "Add table row below");
    await page.keyboard.press("Enter");
    await expect.poll(shape).toEqual([4, 4]);
    // Back in the text, Tab moves to the new (empty) column, whose deletion keeps the rest.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Alt+F10");
    await toolbarTo(page, "Delete table column");
    await page.keyboard.press("Enter");
    await expect.poll(shape).toEqual([4, 3]);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Alt+F10");
    await toolbarTo(page, "Delete table row");
    await page.keyboard.press("Enter");
    await expect.poll(shape).toEqual([3, 3]);
    expect(await table.innerText()).toMatch(/Calories per gram[\s\S]*Fat\s*9/);
    await page.keyboard.press("Tab");
    await expectFocused(text, "the lesson text, by Tab from the toolbar");

    // A figure after the table (Shift+Tab inside a table moves between its cells).
    await page.keyboard.press("Control+End");
    await page.keyboard.type("After the table.");
    await page.keyboard.press("Shift+Tab");
    // Outside a table its buttons say they do nothing there.
    expect(await toolbar.getByRole("button", { name: "Delete table row" }).getAttribute("aria-disabled")).toBe("true");
    await toolbarTo(page, "Insert figure");
    await page.keyboard.press("Enter");
    const form = page.getByRole("form", { name: "Insert figure" });
    await form.getByLabel("Image file").setInputFiles({
      name: "Green Band.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from(FIGURE_SVG),
    });
    await form.getByLabel("Caption").focus();
    await page.keyboard.type("A green band.");
    await page.keyboard.press("Enter");
    await form.getByText("Say what the figure shows, in at least 10 characters.").waitFor();
    await expectFocused(form.getByLabel("Alt text (what the figure shows)"), "the alt text field");
    await page.keyboard.type("A green band twice as wide as it is tall.");
    await form.getByRole("button", { name: "Insert figure" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("img", { name: "A green band twice as wide as it is tall." }).waitFor();
    await status.getByText("Saved", { exact: true }).waitFor();
    await expect
      .poll(async () => bodyOf(await draftDocument(), "alpha-two"))
      .toMatch(
        /```figure\nsrc: green-band\.svg\nalt: A green band twice as wide as it is tall\.\ncaption: A green band\./,
      );
    expect((await draftDocument()).media.map((m) => m.name)).toContain("green-band.svg");
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
    await expectAccessible(page, "lesson editor with a table and a figure");
  });

  it("tells the second of two authors of one lesson about the first, and loses neither's text", async () => {
    const first = await signedInAuthor();
    const second = await signedInAuthor();
    for (const page of [first, second]) {
      await page.goto(`/studio/courses/${COURSE}/lessons/beta-one`);
      await page.getByRole("textbox", { name: "Lesson text" }).waitFor();
    }
    const write = async (page: Page, words: string) => {
      const text = page.getByRole("textbox", { name: "Lesson text" });
      await text.focus();
      await page.keyboard.press("Control+End");
      await page.keyboard.press("Enter");
      await page.keyboard.type(words);
    };
    await write(first, "The first author's sentence.");
    await first.getByRole("status").getByText("Saved", { exact: true }).waitFor();
    await expect.poll(async () => bodyOf(await draftDocument(), "beta-one")).toContain("The first author's sentence.");

    await write(second, "The second author's sentence.");
    const conflict = second.getByTestId("lesson-conflict");
    await conflict.getByRole("heading", { name: "Someone else saved this lesson while you were writing" }).waitFor();
    expect((await conflict.locator("del").allInnerTexts()).join(" ")).toContain("first");
    expect((await conflict.locator("ins").allInnerTexts()).join(" ")).toContain("second");
    // Nothing was overwritten while the second author decides.
    expect(bodyOf(await draftDocument(), "beta-one")).not.toContain("The second author's sentence.");
    await expectAccessible(second, "lesson conflict");
    await conflict.getByRole("button", { name: "Keep my version" }).focus();
    await second.keyboard.press("Enter");
    await second.getByRole("status").getByText("Saved", { exact: true }).waitFor();
    await expect.poll(async () => bodyOf(await draftDocument(), "beta-one")).toContain("The second author's sentence.");
  });
});

describe("question banks and the exam", () => {
  it("shows an item-writing hint while the author types and clears it when the cue is gone, then saves the bank", async () => {
    const page = await signedInAuthor();
    await page.goto(`/studio/courses/${COURSE}/question-banks/alpha`);
    const first = page.getByTestId("question-1");
    await first.getByText("No cues found: a learner needs the course to answer this.").waitFor();
    await expectAccessible(page, "question bank");
    const optionA = first.getByLabel("Option A", { exact: true });
    await optionA.focus();
    await page.keyboard.press("End");
    const longer = " for every client";
    await page.keyboard.type(longer);
    const hint = first.getByText(/The correct answer is the longest option/);
    await hint.waitFor();
    for (let i = 0; i < longer.length; i++) await page.keyboard.press("Backspace");
    await first.getByText("No cues found: a learner needs the course to answer this.").waitFor();
    expect(await hint.count()).toBe(0);
    await expect.poll(() => page.getByText(/Always picking the longest option: \d+% \(limit 40%\)/).count()).toBe(1);

    await first.getByLabel("Question 1: the question").focus();
    await page.keyboard.press("End");
    await page.keyboard.type(" (revised)");
    await page.getByRole("button", { name: "Save bank" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").getByText("Saved", { exact: true }).waitFor();
    const quiz = (await draftDocument()).modules.find((m) => m.id === "alpha")?.quiz as {
      questions: { question: string }[];
    };
    expect(quiz.questions[0]?.question).toBe("Question 1 of alpha? (revised)");
  });

  it("checks the blueprint live: a module asked for more than its bank holds, then one every draw can meet", async () => {
    const page = await signedInAuthor();
    await page.goto(`/studio/courses/${COURSE}/exam`);
    const check = page.getByTestId("blueprint-check");
    await check.getByText("Every exam draw can follow this blueprint.").waitFor();
    const alpha = page.getByLabel("Module Alpha");
    await alpha.focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("9");
    await check.getByText("Not every exam draw can follow this blueprint:").waitFor();
    expect(await check.innerText()).toMatch(/the modules' items add up to 12, but each exam draws 5/);
    expect(await check.innerText()).toMatch(
      /module 'alpha' has \d+ questions in the bank, fewer than the 9 each exam draws/,
    );
    await expectAccessible(page, "exam with a failing blueprint");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("2");
    await check.getByText("Every exam draw can follow this blueprint.").waitFor();
    await page.getByRole("button", { name: "Save exam" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").getByText("Saved", { exact: true }).waitFor();
  });

  it("checks a practical's rubric live, and previews a draft lesson and a quiz graded by the draft's keys", async () => {
    const page = await signedInAuthor();
    await page.goto(`/studio/courses/${COURSE}/practical`);
    await page.getByRole("button", { name: "Add a practical assessment" }).focus();
    await page.keyboard.press("Enter");
    const check = page.getByTestId("rubric-check");
    await check.getByText("Add at least one criterion.").waitFor();
    await page.getByRole("button", { name: "Add a criterion" }).focus();
    await page.keyboard.press("Enter");
    await check
      .getByText("A learner at the top level everywhere passes, and one at the lowest level on any criterion does not.")
      .waitFor();
    await expectAccessible(page, "practical editor");

    await page.goto(`/studio/courses/${COURSE}/preview`);
    const choice = page.getByLabel("What to preview");
    await choice.selectOption({ label: "Lesson alpha-one" });
    await page.getByRole("heading", { name: "Lesson alpha-one" }).waitFor();
    await expectAccessible(page, "lesson preview");
    await choice.selectOption({ label: "Module Alpha quiz" });
    await page.getByRole("button", { name: "Check answers" }).focus();
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .getByText(/0 of \d+ right \(0%\): not a pass/)
      .waitFor();
    await expectAccessible(page, "quiz preview");
    const attempts = await e2e.testDb.database.db.selectFrom("quizAttempt").select("id").execute();
    expect(attempts).toEqual([]);
  });
});
