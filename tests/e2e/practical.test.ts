import { describe, expect, it } from "vitest";
import { answerKey } from "../setup/assessments.ts";
import { SAMPLE_FILES } from "../setup/practical.ts";
import { PRACTICAL_FIXTURE_CONTENT } from "../setup/test-app.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E({ content: PRACTICAL_FIXTURE_CONTENT });
const COURSE = "fixture-practical";

describe("the practical in the browser", () => {
  it("a learner submits work with a file, an assessor claims and scores it by number, the learner is told and gets the certificate", async () => {
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
    expect(await page.getByTestId("practical").innerText()).toContain("review in about 5 days");
    await page.getByRole("link", { name: "Open Practical" }).click();
    await page.getByRole("heading", { name: "Fixture coaching practical" }).waitFor();
    await expectAccessible(page, "practical page");
    await page.getByRole("button", { name: "Submit Practical" }).click();
    await page.getByRole("alert").getByText("Confirm that you have anonymised").waitFor();
    await page.getByLabel("Your written work").fill("Coach and volunteer talked about afternoon energy.");
    await page
      .getByLabel(/^Files/)
      .setInputFiles({ name: "transcript.txt", mimeType: "text/plain", buffer: SAMPLE_FILES.text });
    await page.getByLabel(/I have anonymised/).check();
    await page.getByRole("button", { name: "Submit Practical" }).click();
    await toastText(page).getByText("Practical Submitted").waitFor();
    await page.getByTestId("practical-state").getByText("Submitted: waiting for an assessor").waitFor();
    await page.getByRole("link", { name: "transcript.txt" }).waitFor();

    // The assessor: the queue shows a number, never the name.
    const review = await e2e.newPage();
    await signUpInBrowser(review, assessor);
    await e2e.testDb.database.db
      .updateTable("user")
      .set({ role: "assessor" })
      .where("email", "=", assessor.email)
      .execute();
    await review.reload();
    await review.getByRole("link", { name: "Reviews" }).click();
    const queue = review.getByTestId("review-queue");
    await queue.waitFor();
    expect(await queue.innerText()).not.toContain("Pia");
    await expectAccessible(review, "review queue");
    await queue.getByRole("link", { name: /Open/ }).first().click();
    await review.getByRole("button", { name: "Claim for Review" }).click();
    await review.getByRole("heading", { name: "Your review" }).waitFor();
    expect(await review.locator("main").innerText()).not.toContain("Quintero");
    await review.getByRole("link", { name: /submission-\d+-file-1\.txt/ }).waitFor();
    await review
      .getByRole("group", { name: "Listening" })
      .getByLabel(/Competent \(4\)/)
      .check();
    await review.getByLabel("Comment on Listening").fill("Frequent, accurate reflections.");
    await review
      .getByRole("group", { name: "Scope of practice" })
      .getByLabel(/Competent \(6\)/)
      .check();
    await review.getByLabel("Comment on Scope of practice").fill("Stayed in scope throughout.");
    await review.getByLabel("Overall feedback for the learner").fill("A warm, well-structured session.");
    await review.getByLabel("Pass", { exact: true }).check();
    await expectAccessible(review, "review form");
    await review.getByRole("button", { name: "Send Review" }).click();
    await toastText(review).getByText("Review Sent").waitFor();
    await review.getByRole("heading", { name: "This submission's review" }).waitFor();

    // The learner is told by e-mail and on the course page, and gets the certificate.
    await expect
      .poll(() => e2e.inbox.some((m) => m.to.includes(learner.email) && /Practical assessment passed/.test(m.raw)))
      .toBe(true);
    await page.goto(`/course/${COURSE}`);
    await page.getByTestId("practical-state").getByText("Passed").waitFor();
    await page.getByText("Ready for Certification!").waitFor();
    await page.getByRole("button", { name: "Get Certificate" }).click();
    await page.getByRole("heading", { name: "Certificate of Completion" }).waitFor();
    await page.goto(paths(COURSE));
    await page.getByTestId("review").getByText("A warm, well-structured session.").waitFor();
  });
});

const paths = (courseId: string) => `/course/${courseId}/practical`;
