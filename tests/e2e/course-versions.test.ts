import { describe, expect, it } from "vitest";
import { contentChanged } from "#server/content/content-import.ts";
import {
  checkDocument,
  lockCourse,
  publishVersion,
  readVersion,
  storedMedia,
} from "#server/content/course-versions.ts";
import { expectFocused, tabTo } from "./focus.ts";
import { completeFixtureCourse, createAccount, expectAccessible, signInInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();
const COURSE = "fixture-basics";

/** Publishes version 1's document with beta's first question re-keyed, as a major version. */
async function publishMajor(note: string) {
  const db = e2e.testDb.database.db;
  await db.transaction().execute(async (trx) => {
    await lockCourse(trx, COURSE);
    const v1 = await readVersion(trx, COURSE, 1);
    if (!v1?.document) throw new Error("no document for version 1");
    const document = structuredClone(v1.document);
    const questions = document.modules.find((m) => m.id === "beta")?.quiz?.questions as
      | { correctAnswer: string }[]
      | undefined;
    const first = questions?.[0];
    if (!first) throw new Error("no question");
    first.correctAnswer = first.correctAnswer === "a" ? "b" : "a";
    const media = await storedMedia(trx, COURSE, document);
    await publishVersion(trx, {
      courseId: COURSE,
      document,
      loaded: checkDocument(COURSE, document, media),
      media,
      kind: "major",
      note,
      publishedBy: null,
    });
  });
  contentChanged();
}

describe("a newer version of a course in progress", () => {
  it("says what it changes and moves the learner by keyboard, confirming what they redo", async () => {
    const account = await createAccount(e2e);
    await e2e.enrol(account.email, COURSE);
    const page = await e2e.newPage();
    await signInInBrowser(page, account.email, account.password);
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
    expect((await completeFixtureCourse(page, { exam: false })).every((s) => s === 200)).toBe(true);
    await publishMajor("Beta's quiz re-keyed");

    await page.goto(`/course/${COURSE}`);
    const notice = page.getByTestId("newer-version");
    await notice.getByRole("heading", { name: "A newer version of this course is available" }).waitFor();
    expect(await notice.innerText()).toContain("You are on version 1. Version 2 was published on");
    expect(await notice.innerText()).toContain("Beta's quiz re-keyed");
    expect(await page.getByTestId("move-redo").innerText()).toBe(
      'If you move, you will redo the quiz of "Module Beta".',
    );
    await expectAccessible(page, "course page with a newer version");

    const move = notice.getByRole("button", { name: "Move to the new version" });
    // Keyboard from the notice's heading (the sequential focus starting point) to its button.
    await notice.getByRole("heading").click();
    await tabTo(page, move, "Move to the new version");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Move to version 2?" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('You will redo: The quiz of "Module Beta".');
    expect(await dialog.innerText()).toContain('The quiz of "Module Alpha"');
    await expectAccessible(page, "move dialog");
    // Escape keeps the learner where they are, focus back on the button.
    await page.keyboard.press("Escape");
    await expectFocused(move, "the move button after Escape");
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Move to the new version" }).focus();
    await page.keyboard.press("Enter");

    const moved = page.getByTestId("moved-to-latest");
    await expectFocused(moved, "the message that the move happened");
    expect(await moved.innerText()).toBe("You are now on version 2 of this course.");
    expect(await page.getByTestId("module-beta").innerText()).toContain("In Progress");
    expect(await page.getByTestId("module-alpha").innerText()).toContain("Complete");
    await page.reload();
    await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
    expect(await page.getByTestId("newer-version").count()).toBe(0);
  });
});
