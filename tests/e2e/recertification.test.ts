import { describe, expect, it } from "vitest";
import { answerKey } from "../setup/assessments.ts";
import { giveCertificate } from "../setup/factories.ts";
import { expectFocused } from "./focus.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();
const DAY = 86_400_000;

describe("recertification in the browser", () => {
  it("renews an expiring certificate from My Certificates with a passed recertification exam", async () => {
    const page = await e2e.newPage();
    const email = `renew-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Rosa", lastName: "Parks", email, password: "harbour-lamp-58" });
    const db = e2e.testDb.database.db;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const certificateId = await giveCertificate(db, { ...user, firstName: "Rosa", lastName: "Parks" });
    const oldExpiry = new Date(Date.now() + 20 * DAY);
    await db
      .updateTable("certificate")
      .set({ expiresAt: oldExpiry.toISOString() })
      .where("certificateId", "=", certificateId)
      .execute();

    await page.goto("/certificates");
    const card = page.getByTestId("certificate-fixture-basics");
    await card.getByText("Expiring soon").waitFor();
    expect(await card.getByTestId("renewal-note").innerText()).toMatch(/Renew now with the recertification exam/);
    await expectAccessible(page, "my certificates, expiring");
    await card.getByRole("link", { name: "Renew certificate: Fixture Basics" }).click();

    // The final exam's rules before Start, for this learner, naming the certificate it renews.
    await page.getByRole("heading", { name: "Recertification exam: Fixture Basics" }).waitFor();
    const rules = await page.getByTestId("exam-rules").innerText();
    expect(rules).toMatch(/Questions\s+5/);
    expect(rules).toMatch(/Time limit\s+30 minutes/);
    expect(rules).toMatch(/Pass mark\s+80%/);
    expect(rules).toMatch(/Attempts left\s+3 of 3/);
    expect(await page.locator("main").innerText()).toContain(
      `Renew your certificate ${certificateId} for Fixture Basics`,
    );
    await expectAccessible(page, "recertification intro");
    // Started by keyboard: focus goes to the first question, never to the page body.
    const start = page.getByRole("button", { name: "Start Recertification Exam" });
    await start.focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("time-left").waitFor();
    await expectFocused(page.locator("main h2[id^=question-]"), "the first question");
    await expectAccessible(page, "recertification exam");
    const key = answerKey("fixture-basics", "recertification");
    for (let i = 0; i < 5; i++) {
      await page.getByText(`Question ${i + 1} of 5`).waitFor();
      const heading = await page.locator("main h2").first().innerText();
      const n = /^Question (\d+) of /.exec(heading)?.[1];
      await page.getByRole("radio", { name: new RegExp(`^Option ${key.get(`q${n}`)} of `) }).click();
      await page.getByRole("button", { name: i === 4 ? "Review Answers" : "Next" }).click();
    }
    await page.getByRole("button", { name: "Submit Exam" }).click();
    await toastText(page).getByText("Exam Completed!").waitFor();
    await page.getByText("your certificate is renewed").waitFor();
    await page.getByRole("link", { name: "Back to My Certificates" }).click();

    const newExpiry = new Date(oldExpiry);
    newExpiry.setUTCFullYear(newExpiry.getUTCFullYear() + 2);
    const longDate = newExpiry.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
    await card.getByText("Valid", { exact: true }).waitFor();
    expect(await card.innerText()).toContain(longDate);
    expect(await card.getByRole("link", { name: /^Renew/ }).count()).toBe(0);

    // The public verify page shows the renewal and the hours.
    const visitor = await e2e.newPage();
    await visitor.goto(`/verify/${certificateId}`);
    await visitor
      .getByTestId("renewal-history")
      .getByText(/renewed by recertification exam/)
      .waitFor();
    expect(await visitor.getByTestId("verification-status").innerText()).toContain(
      "Estimated study time: 6 hours. Not approved for continuing-education credit.",
    );
    await expectAccessible(visitor, "verify page with renewal history");
  }, 120_000);

  it("an admin sees an expiring certificate with its reminders, and extends it by hand", async () => {
    const db = e2e.testDb.database.db;
    const holder = await e2e.newPage();
    const holderEmail = `holder-${Date.now()}@example.com`;
    await signUpInBrowser(holder, {
      firstName: "Ada",
      lastName: "Byron",
      email: holderEmail,
      password: "copper-kite-93",
    });
    const holderRow = await db
      .selectFrom("user")
      .select("id")
      .where("email", "=", holderEmail)
      .executeTakeFirstOrThrow();
    const certificateId = await giveCertificate(db, { ...holderRow, firstName: "Ada", lastName: "Byron" });
    const expiresAt = new Date(Date.now() + 25 * DAY).toISOString();
    await db.updateTable("certificate").set({ expiresAt }).where("certificateId", "=", certificateId).execute();
    await db
      .insertInto("certificateReminder")
      .values({ id: `r-${certificateId}`, certificateId, kind: "30-days", expiresAt, sentAt: new Date().toISOString() })
      .execute();

    const page = await e2e.newPage();
    const email = `registrar-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Reg", lastName: "Istrar", email, password: "willow-brook-46" });
    await db.updateTable("user").set({ role: "admin" }).where("email", "=", email).execute();
    await page.goto("/admin/certificates");
    const row = page.getByTestId(`expiring-${certificateId}`);
    await row.waitFor();
    expect(await row.innerText()).toContain("Reminders sent: 30 days");
    await expectAccessible(page, "admin expiring certificates");
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      "/api/admin/certificates/expiring.csv?window=30",
    );

    // Extend opens the form with focus in it; Cancel puts focus back on Extend (keyboard only).
    const extend = row.getByRole("button", { name: `Extend certificate ${certificateId}` });
    await extend.focus();
    await page.keyboard.press("Enter");
    await expectFocused(row.getByLabel("New expiry date"), "the new expiry date");
    await row.getByRole("button", { name: "Cancel" }).focus();
    await page.keyboard.press("Enter");
    await expectFocused(extend, "Extend after Cancel");
    await page.keyboard.press("Enter");
    await row.getByRole("button", { name: "Save extension" }).click();
    // Both fields are named in the form's alert; the first is marked and takes focus.
    const alert = row.getByRole("alert");
    await alert.getByText("Choose the new expiry date.").waitFor();
    await alert.getByText("Say why the certificate is extended.").waitFor();
    const date = row.getByLabel("New expiry date");
    await expect.poll(() => date.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await date.getAttribute("aria-invalid")).toBe("true");
    expect(await row.getByLabel(/^Reason/).getAttribute("aria-invalid")).toBe("true");
    const until = new Date(Date.now() + 400 * DAY).toISOString().slice(0, 10);
    await row.getByLabel("New expiry date").fill(until);
    await row.getByLabel(/^Reason/).fill("Parental leave during the renewal window");
    await row.getByRole("button", { name: "Save extension" }).focus();
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Certificate extended").waitFor();
    await expect.poll(() => row.count()).toBe(0);
    // The row left the window with its buttons: focus is on the list, not the page body.
    await expectFocused(page.getByRole("region", { name: "Certificates in this window" }), "the certificates list");

    await page.goto(`/verify/${certificateId}`);
    await page
      .getByTestId("renewal-history")
      .getByText(/extended by the academy/)
      .waitFor();
  }, 120_000);
});
