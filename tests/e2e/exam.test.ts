import { describe, expect, it } from "vitest";
import { expectFocused, tabTo } from "./focus.ts";
import { completeFixtureCourse, expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();

describe("the timed final exam", () => {
  it("shows the learner's own rules, focuses the first question when started late, and announces the time left", async () => {
    const page = await e2e.newPage();
    const email = `timed-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Tam", lastName: "Ledger", email, password: "slow-reader-1.5" });
    await e2e.enrol(email, "fixture-basics");
    expect(await completeFixtureCourse(page, { exam: false })).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // An admin's accommodation: half as much time again.
    const db = e2e.testDb.database.db;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await db
      .insertInto("learnerAccommodation")
      .values({ userId: user.id, timeMultiplier: 1.5, updatedBy: user.id, updatedAt: new Date().toISOString() })
      .execute();

    // The page's clock is the test's, so the exam's last minutes come without waiting for them.
    await page.clock.install();
    await page.goto("/course/fixture-basics/exam");
    const main = page.locator("main");
    await main.getByRole("heading", { name: "Final exam", level: 1 }).waitFor();
    const rules = page.getByTestId("exam-rules");
    await rules.waitFor();
    const rule = async (term: string) => rules.locator(`dt:text-is("${term}") + dd`).innerText();
    expect(await rule("Questions")).toBe("5");
    expect(await rule("Time limit")).toBe("45 minutes (your extra time: 30 minutes × 1.5)");
    expect(await rule("Pass mark")).toBe("80%");
    expect(await rule("Attempts left")).toBe("3 of 3");
    await expectAccessible(page, "exam rules");

    // Someone who reads the rules first: Start comes well after the page's own heading focus is over.
    // (A wait, not a timing assertion.)
    await page.waitForTimeout(8_500);
    await page.keyboard.press("Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await page.keyboard.press("Enter");
    const start = main.getByRole("button", { name: "Start Exam" });
    await tabTo(page, start, "Start Exam");
    await page.keyboard.press("Enter");
    const firstQuestion = main.getByRole("heading", { name: /^Question \d+ of the exam\?$/, level: 2 });
    await expectFocused(firstQuestion, "the first question after Start");
    expect(await page.getByTestId("question-position").innerText()).toBe("Question 1 of 5");

    // The clock shows every second but is not a live region; the announcer speaks at 10, 5 and 1
    // minutes left and when time is up.
    const clock = page.getByTestId("time-left");
    expect(await clock.innerText()).toMatch(/^Time left: 4[45]:\d\d$/);
    expect(await clock.evaluate((el) => !!el.closest("[aria-live]"))).toBe(false);
    const announcer = page.getByTestId("time-announcement");
    expect(await announcer.getAttribute("aria-live")).toBe("polite");
    const heard = () => announcer.innerText();
    expect(await heard()).toBe("");
    // Sighted learners see the same warnings beside the clock.
    const warning = page.getByTestId("time-warning");
    const seen = async () => ((await warning.count()) ? warning.innerText() : "");
    await page.clock.fastForward("30:00");
    expect(await heard(), "nothing to say with 15 minutes left").toBe("");
    expect(await seen(), "nothing to show with 15 minutes left").toBe("");
    await page.clock.fastForward("05:05");
    await expect.poll(heard).toBe("10 minutes left in this exam.");
    expect(await seen()).toBe("10 minutes left in this exam.");
    expect(await warning.evaluate((el) => !!el.closest("[aria-live]"))).toBe(false);
    await page.clock.fastForward("05:00");
    await expect.poll(heard).toBe("5 minutes left in this exam.");
    expect(await seen()).toBe("5 minutes left in this exam.");
    await page.clock.fastForward("04:00");
    await expect.poll(heard).toBe("1 minute left in this exam.");
    expect(await seen()).toBe("1 minute left in this exam.");
    await page.clock.fastForward("01:00");
    await expect.poll(heard).toBe("Time is up. Submit your answers now.");
    expect(await clock.innerText()).toBe("Time is up: submit now.");
    await expectAccessible(page, "exam with time up");
  });
});
