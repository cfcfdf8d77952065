import { describe, expect, it } from "vitest";
import { ASSESSED_BY_TEXT } from "#shared/schemas/practical.ts";
import { answerKey } from "../setup/assessments.ts";
import { COACH_QUALIFICATIONS, fixtureExemplars, SAMPLE_FILES } from "../setup/practical.ts";
import { PRACTICAL_FIXTURE_CONTENT } from "../setup/test-app.ts";
import { expectFocused, tabTo } from "./focus.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E({ content: PRACTICAL_FIXTURE_CONTENT });
const COURSE = "fixture-practical";

describe("the practical in the browser", () => {
  it("a learner submits a recorded session; a new assessor calibrates on the exemplars and reviews it by keyboard; a blind second mark agrees; the learner sees one result and the certificate", async () => {
    const password = "calm-river-42";
    const learner = { firstName: "Pia", lastName: "Quintero", email: `pia-${Date.now()}@example.com`, password };
    const assessor = { firstName: "Asa", lastName: "Assessor", email: `asa-${Date.now()}@example.com`, password };

    // The learner finishes every lesson and the quiz through the API the pages use.
    const page = await e2e.newPage();
    await signUpInBrowser(page, learner);
    await e2e.enrol(learner.email, COURSE);
    const key = Object.fromEntries(answerKey(COURSE, "delta"));
    const statuses = await page.evaluate(
      async ({ course, key }) => {
        const call = (url: string, body: unknown) =>
          fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        const out = [];
        for (const id of ["delta-one", "delta-two"])
          out.push((await call(`/api/progress/${course}/lessons/${id}/complete`, {})).status);
        const quiz = (await (await fetch(`/api/quiz/${course}/delta/attempt`, { method: "POST" })).json()) as {
          attemptId: string;
          questions: { id: string }[];
        };
        const answers = Object.fromEntries(quiz.questions.map((q) => [q.id, key[q.id]]));
        out.push((await call(`/api/quiz/${course}/delta`, { answers, attemptId: quiz.attemptId })).status);
        return out;
      },
      { course: COURSE, key },
    );
    expect(statuses).toEqual([200, 200, 200]);
    await page.goto(`/course/${COURSE}`);
    await page.getByTestId("practical-state").getByText("Ready for your submission").waitFor();
    // Only the practical is left: the course page's first action names it.
    await page.getByTestId("resume").getByText("Resume: Fixture coaching practical").waitFor();
    expect(await page.getByTestId("practical").innerText()).toContain("review in about 5 days");
    await page.getByRole("link", { name: "Open Practical" }).click();
    await page.getByRole("heading", { name: "Fixture coaching practical" }).waitFor();
    await expectAccessible(page, "practical page");
    await page.getByRole("button", { name: "Submit Practical" }).click();
    await page.getByRole("alert").getByText("Confirm that you have anonymised").waitFor();
    await page.getByText("If a volunteer discloses a real red flag").waitFor();
    await page.getByLabel("Your written work").fill("Coach and volunteer talked about afternoon energy.");
    await page
      .getByLabel(/^Files/)
      .setInputFiles({ name: "transcript.txt", mimeType: "text/plain", buffer: SAMPLE_FILES.text });
    await page.getByLabel(/I have anonymised/).check();
    await page.getByLabel(/No real red flag came up/).check();
    // A transcript alone is refused: the recording is the evidence.
    await page.getByRole("button", { name: "Submit Practical" }).click();
    await page.getByRole("alert").getByText("Attach the audio or video recording of the session").waitFor();
    await page.getByLabel(/^Files/).setInputFiles([
      { name: "session.wav", mimeType: "audio/wav", buffer: SAMPLE_FILES.wav },
      { name: "transcript.txt", mimeType: "text/plain", buffer: SAMPLE_FILES.text },
    ]);
    await page.getByRole("button", { name: "Submit Practical" }).click();
    await toastText(page).getByText("Practical Submitted").waitFor();
    await page.getByTestId("practical-state").getByText("Submitted: waiting for an assessor").waitFor();
    await page.getByRole("link", { name: "session.wav" }).waitFor();
    await page.goto(`/course/${COURSE}`);
    await page.getByTestId("resume").getByText("Waiting for review: Fixture coaching practical").waitFor();
    await page.goto(`/course/${COURSE}/practical`);
    await page.getByRole("link", { name: "session.wav" }).waitFor();

    // A new assessor: records their qualifications, is assigned, and sees no live work before calibrating.
    const review = await e2e.newPage();
    const ranges: { status: number; contentRange: string }[] = [];
    review.on("response", (r) => {
      if (r.url().includes("/api/practical-files/"))
        ranges.push({ status: r.status(), contentRange: r.headers()["content-range"] ?? "" });
    });
    await signUpInBrowser(review, assessor);
    const db = e2e.testDb.database.db;
    await db.updateTable("user").set({ role: "assessor" }).where("email", "=", assessor.email).execute();
    const assessorId = (
      await db.selectFrom("user").select("id").where("email", "=", assessor.email).executeTakeFirstOrThrow()
    ).id;
    await review.reload();
    await review.getByRole("link", { name: "Reviews" }).click();
    await review.getByText("Nothing is waiting for review on your calibrated courses").waitFor();
    await review.getByRole("link", { name: "Qualifications and Calibration" }).first().click();
    await review.getByRole("heading", { name: "Qualifications and Calibration" }).waitFor();
    await review.getByLabel("Credential", { exact: true }).fill(COACH_QUALIFICATIONS.credential);
    await review.getByLabel("Awarding body").fill(COACH_QUALIFICATIONS.awardingBody);
    await review.getByLabel("Credential number").fill(COACH_QUALIFICATIONS.credentialNumber);
    await review.getByLabel("Coaching training (optional)").fill(COACH_QUALIFICATIONS.coachingTraining);
    await review.getByRole("button", { name: "Save Qualifications" }).click();
    await toastText(review).getByText("Qualifications Saved").waitFor();
    // An admin assigns the course (the Learners page's Assign form).
    await db
      .insertInto("courseStaff")
      .values({
        userId: assessorId,
        courseId: COURSE,
        role: "assessor",
        assignedBy: "admin@example.com",
        createdAt: new Date().toISOString(),
      })
      .execute();
    await review.reload();
    const card = review.getByTestId(`calibration-${COURSE}`);
    await card.getByText("Not calibrated yet").waitFor();
    await expectAccessible(review, "calibration page");

    // A level chosen by keyboard: Tab to the criterion's first level, Space, then the arrows to the one wanted.
    const chooseLevel = async (group: string, points: number) => {
      const radios = review.getByRole("group", { name: group }).getByRole("radio");
      const labels = await radios.evaluateAll((els) =>
        els.map((e) => (e as HTMLInputElement).labels?.[0]?.textContent ?? ""),
      );
      const index = labels.findIndex((l) => l.includes(`(${points})`));
      await tabTo(review, radios.first(), `the first level of ${group}`, 20);
      await review.keyboard.press("Space");
      for (let i = 0; i < index; i++) await review.keyboard.press("ArrowDown");
      expect(await radios.nth(index).isChecked(), `${group} at ${points}`).toBe(true);
    };
    const chooseDecision = async (decision: "pass" | "resubmit") => {
      const wanted = review.getByLabel(decision === "pass" ? "Pass" : "Resubmit", { exact: true });
      const onDecision = () =>
        review.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === "decision");
      for (let stop = 0; stop < 6 && !(await onDecision()); stop++) await review.keyboard.press("Tab");
      expect(await onDecision(), "Tab reaches the decision").toBe(true);
      await review.keyboard.press("Space");
      for (let i = 0; i < 2 && !(await wanted.isChecked()); i++) await review.keyboard.press("ArrowDown");
      expect(await wanted.isChecked(), `decision ${decision}`).toBe(true);
    };

    // Calibration, keyboard alone: each exemplar scored in the review form at the agreed levels.
    const exemplars = fixtureExemplars();
    for (const [i, exemplar] of exemplars.entries()) {
      await review.goto(`/review/calibration/${COURSE}/${exemplar.id}`);
      const heading = review.getByRole("heading", { name: `Calibration exemplar ${i + 1}` });
      await heading.waitFor();
      // Keyboard alone from the page's start: the skip link into the main content.
      await review.keyboard.press("Tab");
      await expectFocused(review.getByRole("link", { name: "Skip to content" }), "the skip link");
      await review.keyboard.press("Enter");
      for (const s of exemplar.scores) {
        const title = s.criterionId === "listening" ? "Listening" : "Scope of practice";
        await chooseLevel(title, s.points);
        await review.keyboard.press("Tab");
        await review.keyboard.type("Scored against the descriptors.");
      }
      await review.keyboard.press("Tab");
      await review.keyboard.type("Calibration.");
      expect(await review.getByLabel("Overall feedback for the learner").inputValue()).toBe("Calibration.");
      await chooseDecision(exemplar.decision);
      await tabTo(review, review.getByRole("button", { name: "Send Scores" }), "Send Scores", 4);
      await review.keyboard.press("Enter");
      await review.getByTestId("calibration-result").getByText(exemplar.rationale).waitFor();
      // The form is drawn afresh for the next score: focus goes to the result, never to the page.
      await expectFocused(review.getByTestId("calibration-result").getByRole("heading"), "the calibration result");
      if (i === 0) await expectAccessible(review, "calibration result");
    }
    await review.getByText("You are calibrated on this practical: its live queue is open.").waitFor();

    // The live queue: a number, never the name; the recording plays in the browser's own player; keyboard only.
    await review.goto("/review");
    const queue = review.getByTestId("review-queue");
    await queue.waitFor();
    expect(await queue.innerText()).not.toContain("Pia");
    await expectAccessible(review, "review queue");
    await queue.getByRole("link", { name: /Open/ }).first().focus();
    await review.keyboard.press("Enter");
    const claim = review.getByRole("button", { name: "Claim for Review" });
    await tabTo(review, claim, "the claim button", 40);
    await review.keyboard.press("Enter");
    await review.getByRole("heading", { name: "Your review" }).waitFor();
    expect(await review.locator("main").innerText()).not.toContain("Quintero");
    const player = review.locator("audio[controls]");
    await player.waitFor();
    expect(await player.getAttribute("src")).toMatch(/^\/api\/practical-files\//);
    await review.getByRole("link", { name: /submission-\d+-file-2\.txt/ }).waitFor();
    // From the heading, Tab reaches the player; its own keyboard controls play, seek and pause it,
    // and the recording arrives by byte ranges (206), so the player can seek in it.
    await review.getByRole("heading", { name: /Submission #/ }).focus();
    await tabTo(review, player, "the recording's player", 10);
    const state = () =>
      player.evaluate((a: HTMLAudioElement) => ({
        paused: a.paused,
        time: a.currentTime,
        seekable: a.seekable.length > 0 ? a.seekable.end(0) : 0,
        duration: a.duration,
      }));
    await review.keyboard.press("Space");
    await expect.poll(async () => (await state()).paused).toBe(false);
    await review.keyboard.press("Space");
    await expect.poll(async () => (await state()).paused).toBe(true);
    const before = (await state()).time;
    expect((await state()).seekable).toBeGreaterThan(5);
    await review.keyboard.press("ArrowRight");
    await expect.poll(async () => (await state()).time).toBeGreaterThan(before);
    expect(ranges.some((r) => r.status === 206 && /^bytes \d+-\d+\/\d+$/.test(r.contentRange))).toBe(true);
    const levels = async (group: string, steps: number) => {
      const first = review.getByRole("group", { name: group }).getByRole("radio").first();
      await tabTo(review, first, `the first level of ${group}`, 20);
      await review.keyboard.press("Space");
      for (let i = 0; i < steps; i++) await review.keyboard.press("ArrowDown");
    };
    await levels("Listening", 2);
    await review.keyboard.press("Tab");
    await review.keyboard.type("Frequent, accurate reflections.");
    await levels("Scope of practice", 2);
    await review.keyboard.press("Tab");
    await review.keyboard.type("Stayed in scope throughout.");
    await review.keyboard.press("Tab");
    await review.keyboard.type("A warm, well-structured session.");
    const pass = review.getByLabel("Pass", { exact: true });
    await tabTo(review, review.getByLabel("Resubmit", { exact: true }), "the decision", 4);
    await review.keyboard.press("ArrowUp");
    expect(await pass.isChecked()).toBe(true);
    expect(
      await review
        .getByRole("group", { name: "Listening" })
        .getByLabel(/Competent \(4\)/)
        .isChecked(),
    ).toBe(true);
    expect(
      await review
        .getByRole("group", { name: "Scope of practice" })
        .getByLabel(/Competent \(6\)/)
        .isChecked(),
    ).toBe(true);
    await expectAccessible(review, "review form");
    await tabTo(review, review.getByRole("button", { name: "Send Review" }), "Send Review", 4);
    await review.keyboard.press("Enter");
    // At the line on every criterion: borderline, so a second assessor marks it blind.
    await toastText(review)
      .getByText(/another assessor marks it next/)
      .waitFor();
    const number = Number(/#(\d+)/.exec(await review.getByRole("heading", { name: /Submission #/ }).innerText())?.[1]);

    // The learner still waits: no result until the second mark.
    await page.goto(`/course/${COURSE}`);
    await page.getByTestId("practical-state").getByText("Submitted: waiting for an assessor").waitFor();

    // A second calibrated assessor marks it blind through the same API, and agrees.
    const second = await e2e.newPage();
    const other = { firstName: "Bo", lastName: "Second", email: `bo-${Date.now()}@example.com`, password };
    await signUpInBrowser(second, other);
    await db.updateTable("user").set({ role: "assessor" }).where("email", "=", other.email).execute();
    const otherId = (
      await db.selectFrom("user").select("id").where("email", "=", other.email).executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto("courseStaff")
      .values({
        userId: otherId,
        courseId: COURSE,
        role: "assessor",
        assignedBy: "admin@example.com",
        createdAt: new Date().toISOString(),
      })
      .execute();
    const statuses2 = await second.evaluate(
      async ({ course, exemplars, number, qualifications }) => {
        const send = (method: string, url: string, body?: unknown) =>
          fetch(url, {
            method,
            headers: body === undefined ? {} : { "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        const out = [(await send("PUT", "/api/review/profile", qualifications)).status];
        for (const e of exemplars)
          out.push(
            (
              await send("POST", `/api/review/calibration/${course}/${e.id}`, {
                scores: e.scores.map((s) => ({ ...s, comment: "As agreed." })),
                feedback: "Calibration.",
                decision: e.decision,
              })
            ).status,
          );
        const blind = (await (await send("GET", `/api/review/submissions/${number}`)).json()) as { marks: unknown[] };
        out.push(blind.marks.length);
        out.push((await send("POST", `/api/review/submissions/${number}/claim`)).status);
        out.push(
          (
            await send("POST", `/api/review/submissions/${number}/review`, {
              scores: [
                { criterionId: "listening", points: 4, comment: "Accurate reflections." },
                { criterionId: "scope", points: 6, comment: "In scope." },
              ],
              feedback: "Second mark.",
              decision: "pass",
            })
          ).status,
        );
        return out;
      },
      { course: COURSE, exemplars, number, qualifications: COACH_QUALIFICATIONS },
    );
    expect(statuses2).toEqual([200, 200, 200, 200, 0, 200, 200]);

    // The learner sees one result (the first mark), is told once, and gets the certificate that says how it was assessed.
    await expect
      .poll(() => e2e.inbox.some((m) => m.to.includes(learner.email) && /Practical assessment passed/.test(m.raw)))
      .toBe(true);
    expect(e2e.inbox.filter((m) => m.to.includes(learner.email) && /Practical assessment/.test(m.raw))).toHaveLength(1);
    await page.goto(`/course/${COURSE}`);
    await page.getByTestId("practical-state").getByText("Passed").waitFor();
    await page.goto(paths(COURSE));
    await page.getByTestId("review").getByText("A warm, well-structured session.").waitFor();
    expect(await page.getByTestId("review").count()).toBe(1);
    expect(await page.locator("main").innerText()).not.toContain("Second mark.");
    await page.getByTestId("assessed-by").getByText(ASSESSED_BY_TEXT).waitFor();
    await page.goto(`/course/${COURSE}`);
    await page.getByText("Ready for Certification!").waitFor();
    await page.getByRole("button", { name: "Get Certificate" }).click();
    await page.getByRole("heading", { name: "Certificate of Completion" }).waitFor();
    await page.getByTestId("assessed-by").getByText(ASSESSED_BY_TEXT).waitFor();
    expect(await page.locator("main").innerText()).not.toContain("Asa");

    // The admin's agreement report: the pair counted for both assessors, with the sample size.
    const adminPage = await e2e.newPage();
    const chief = { firstName: "Cy", lastName: "Chief", email: `cy-${Date.now()}@example.com`, password };
    await signUpInBrowser(adminPage, chief);
    await db.updateTable("user").set({ role: "admin" }).where("email", "=", chief.email).execute();
    await adminPage.goto("/admin/agreement");
    const rows = adminPage.getByTestId("agreement-row");
    await rows.first().waitFor();
    const report = await adminPage.locator("main").innerText();
    expect(report).toContain(assessor.email);
    expect(report).toContain(other.email);
    expect(report).toMatch(/1 double-marked, same decision in 100%/);
    await expectAccessible(adminPage, "assessor agreement");
  });
});

const paths = (courseId: string) => `/course/${courseId}/practical`;
