import { randomUUID } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectFocused } from "./focus.ts";
import { createAccount, type E2E, expectAccessible, toastText, useE2E } from "./harness.ts";

/**
 * Issue 41's journey, keys only (decision 0056): a learner on a phone asks on a lesson and is shown a
 * similar question already asked; an instructor answers it from the unanswered queue; the learner gets
 * the e-mail (through the outbox) and a notice on the avatar, accepts the answer, and the instructor
 * promotes it into the lesson's Common questions, which every learner then reads in the lesson.
 */
const e2e: E2E = useE2E();
const COURSE = "fixture-basics";
const LESSON = `/course/${COURSE}/lesson/alpha-two`;
const SEEN_BEFORE = "How much protein after a workout?";
const ASKED = "Is protein after a workout needed on rest days?";

const userIdOf = async (email: string) =>
  (await e2e.testDb.database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow())
    .id;

/** Types into a field reached from the keyboard: focus it, then type as a person would. */
async function typeInto(page: Page, label: string | RegExp, text: string) {
  const field = page.getByLabel(label, { exact: typeof label === "string" });
  await field.focus();
  await page.keyboard.type(text);
}
async function press(page: Page, name: string | RegExp, what = String(name)) {
  const control = page.getByRole("button", {
    name,
    exact: typeof name === "string",
  });
  await control.focus();
  await expectFocused(control, what);
  await page.keyboard.press("Enter");
}
/** Arrow keys down an open menu until the item has focus. */
async function downTo(page: Page, item: Locator) {
  await item.waitFor();
  // One press at a time, each given a moment: on a loaded machine the menu takes focus after it shows,
  // and presses sent before that are lost.
  await expect
    .poll(
      async () => {
        if (await item.evaluate((el) => el === document.activeElement)) return true;
        await page.keyboard.press("ArrowDown");
        return item.evaluate((el) => el === document.activeElement);
      },
      { interval: 150, timeout: 10_000 },
    )
    .toBe(true);
  await expectFocused(item, await item.innerText());
}
async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto("/login");
  await typeInto(page, "Email", account.email);
  await typeInto(page, "Password", account.password);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname !== "/login");
  // The course list has arrived and taken focus for its heading: what is focused next stays focused.
  await expectFocused(page.locator("main h1"), "the courses page's heading after signing in");
}

describe("questions on a lesson, from asking to the lesson's common questions", () => {
  it("ask, see a similar question, answer from the queue, be told by e-mail and notice, accept, promote", async () => {
    const db = e2e.testDb.database.db;
    const learner = await createAccount(e2e, {
      firstName: "Amara",
      lastName: "Okafor",
    });
    const classmate = await createAccount(e2e, {
      firstName: "Ben",
      lastName: "Lee",
    });
    const instructor = await createAccount(e2e, {
      firstName: "Iris",
      lastName: "Instructor",
    });
    // The instructor is enrolled too: the lesson route lets only enrolled learners read past the preview.
    for (const account of [learner, classmate, instructor]) await e2e.enrol(account.email, COURSE);
    const instructorId = await userIdOf(instructor.email);
    await db.updateTable("user").set({ role: "instructor" }).where("id", "=", instructorId).execute();
    await db
      .insertInto("courseStaff")
      .values({
        userId: instructorId,
        courseId: COURSE,
        role: "instructor",
        assignedBy: instructorId,
        createdAt: new Date().toISOString(),
      })
      .execute();
    // A classmate asked before, on this lesson.
    await db
      .insertInto("post")
      .values({
        id: randomUUID(),
        kind: "question",
        courseId: COURSE,
        lessonId: "alpha-two",
        questionId: null,
        authorId: await userIdOf(classmate.email),
        badge: null,
        title: SEEN_BEFORE,
        body: "Is 20 g enough?",
        html: "<p>Is 20 g enough?</p>",
        state: "visible",
        acceptedAnswerId: null,
        createdAt: new Date(Date.now() - 3_600_000).toISOString(),
        editedAt: null,
        notifiedAt: null,
      })
      .execute();

    // The learner, on a phone: the panel opens below the lesson.
    const phone = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(phone, learner);
    await phone.goto(LESSON);
    await press(phone, "Questions about this lesson");
    const panel = phone.getByRole("region", { name: "Questions", exact: true });
    await panel.waitFor();
    const lessonBox = await phone.locator("article.prose-lesson").boundingBox();
    const panelBox = await panel.boundingBox();
    expect(panelBox?.y ?? 0, "the panel below the lesson on a phone").toBeGreaterThan(
      (lessonBox?.y ?? 0) + (lessonBox?.height ?? 0),
    );
    await typeInto(phone, "Your question", ASKED);
    const similar = phone.getByRole("region", { name: "Similar questions" });
    await similar.getByRole("button", { name: SEEN_BEFORE }).waitFor();
    await typeInto(phone, "Details", "I train three days a week. Does the **timing** matter when I rest?");
    await expectAccessible(phone, "the ask form with a similar question");
    await press(phone, "Post question");
    await toastText(phone).getByText("Question Posted").waitFor();
    await expectFocused(phone.getByRole("heading", { name: ASKED }), "the question just asked");

    // The instructor, on a wide screen: the account menu leads staff to the unanswered queue.
    const desk = await e2e.newPage();
    await signIn(desk, instructor);
    await desk.getByRole("button", { name: /Your account/ }).focus();
    await desk.keyboard.press("Enter");
    await downTo(desk, desk.getByRole("menu").getByRole("menuitem", { name: "Unanswered questions" }));
    await desk.keyboard.press("Enter");
    await desk.getByRole("heading", { name: "Unanswered questions", level: 1 }).waitFor();
    const waiting = desk.getByTestId("queue-item").filter({ hasText: ASKED });
    expect(await waiting.innerText()).toMatch(/Waiting \d+ min/);
    // Oldest first: the classmate's question, asked an hour earlier, comes before.
    expect(await desk.getByTestId("queue-item").allInnerTexts()).toEqual([
      expect.stringContaining(SEEN_BEFORE),
      expect.stringContaining(ASKED),
    ]);
    await expectAccessible(desk, "the unanswered queue");
    const answerButton = waiting.getByRole("button", { name: /^Answer/ });
    await answerButton.focus();
    await desk.keyboard.press("Enter");
    await expectFocused(desk.getByRole("heading", { name: ASKED }), "the question opened from the queue");
    await typeInto(desk, "Your answer", "Yes: protein on rest days supports *recovery* too.");
    await press(desk, "Post answer");
    await toastText(desk).getByText("Answer Posted").waitFor();
    await desk.getByText("Instructor", { exact: true }).first().waitFor();
    await expect
      .poll(async () => desk.getByTestId("queue-item").filter({ hasText: ASKED }).count(), {
        message: "the answered question leaves the queue",
      })
      .toBe(0);

    // The learner's e-mail went through the outbox and arrived.
    const queued = await db
      .selectFrom("outboxEmail")
      .select(["template", "status"])
      .where("toAddress", "=", learner.email)
      .where("template", "=", "question-activity")
      .execute();
    expect(queued).toHaveLength(1);
    await expect
      .poll(() => e2e.inbox.filter((m) => m.to.includes(learner.email) && m.raw.includes("New answer")).length, {
        message: "the answer's e-mail in the learner's inbox",
        timeout: 20_000,
      })
      .toBe(1);

    // The in-app notice: a count on the avatar, and the list from the account menu.
    await phone.goto("/my-learning");
    await phone.getByRole("heading", { level: 1 }).waitFor();
    await phone.getByRole("button", { name: "Open menu" }).focus();
    await phone.keyboard.press("Enter");
    const avatar = phone.getByRole("button", {
      name: /Your account.*1 new notice/,
    });
    await avatar.waitFor();
    expect(await phone.locator("#mobile-menu").getByTestId("notice-count-status").innerText()).toBe("1 new notice");
    await avatar.focus();
    await phone.keyboard.press("Enter");
    const menu = phone.getByRole("menu");
    await menu.waitFor();
    await downTo(phone, menu.getByRole("menuitem", { name: "What's new (1)" }));
    await phone.keyboard.press("Enter");
    await phone.getByRole("heading", { name: "What's new", level: 1 }).waitFor();
    const notice = phone.getByTestId("notice");
    expect(await notice.innerText()).toContain("New answer");
    await expectAccessible(phone, "what's new");
    await notice.getByRole("link", { name: ASKED }).focus();
    await phone.keyboard.press("Enter");
    // The link opens the lesson; its panel opens on that question.
    await press(phone, "Questions about this lesson");
    await expectFocused(phone.getByRole("heading", { name: ASKED }), "the question from the notice");
    await press(phone, "Accept this answer");
    await toastText(phone).getByText("Answer Accepted").waitFor();
    await phone.getByText("Accepted answer").waitFor();
    await expectAccessible(phone, "the accepted answer");

    // The instructor promotes it from the lesson, where the panel sits beside the lesson, under the outline.
    await desk.goto(LESSON);
    await press(desk, "Questions about this lesson");
    const side = desk.getByRole("region", { name: "Questions", exact: true });
    await side.waitFor();
    const [wideLesson, widePanel] = [
      await desk.locator("article.prose-lesson").boundingBox(),
      await side.boundingBox(),
    ];
    expect(widePanel?.x ?? 0, "the panel beside the lesson on a wide screen").toBeGreaterThan(
      (wideLesson?.x ?? 0) + (wideLesson?.width ?? 0),
    );
    const open = side.getByRole("button", { name: ASKED });
    await open.focus();
    await desk.keyboard.press("Enter");
    await expectFocused(desk.getByRole("heading", { name: ASKED }), "the question in the panel");
    await press(desk, "Promote to common questions");
    await toastText(desk).getByText("Added to Common Questions").waitFor();

    // Every learner now reads it in the lesson itself.
    await phone.goto(LESSON);
    // The common questions load as they come near the screen: Tab past the lesson brings them there.
    await phone.getByRole("button", { name: "Questions about this lesson" }).focus();
    const common = phone.getByRole("region", { name: "Common questions" });
    await common.getByText(ASKED).waitFor();
    const summary = common.locator("summary", { hasText: ASKED });
    await summary.focus();
    await phone.keyboard.press("Enter");
    await common.getByText("supports recovery too").waitFor();
    await expectAccessible(phone, "the lesson with its common question");
  });
});
