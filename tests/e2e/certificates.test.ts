import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { completeFixtureCourse, expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();

describe("certificates in the browser", () => {
  it("finishes a course, gets the certificate, downloads the PDF, and the verify link works signed out", async () => {
    const page = await e2e.newPage();
    // A desktop browser without Web Share (whether a headless build has it varies): the link is copied.
    await page.addInitScript(() => Object.defineProperty(navigator, "share", { value: undefined }));
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const email = `cert-${Date.now()}@example.com`;
    await signUpInBrowser(page, {
      firstName: "<img src=x onerror=alert(1)>",
      lastName: "Nakamura",
      email,
      password: "lantern-fog-71",
    });
    await e2e.enrol(email, "fixture-basics");

    // Complete the course through the same API the pages use, from inside the signed-in page.
    const status = await completeFixtureCourse(page);
    expect(status).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);

    await page.goto("/certificates");
    await page.getByRole("heading", { name: "No certificates earned yet" }).waitFor();
    await page.getByRole("link", { name: "Continue Learning" }).waitFor();

    await page.goto("/course/fixture-basics");
    await page.getByText("Ready for Certification!").waitFor();
    await page.getByRole("button", { name: "Get Certificate" }).click();
    await page.getByRole("heading", { name: "Certificate of Completion" }).waitFor();
    expect(await page.getByTestId("holder-name").innerText()).toBe("<img src=x onerror=alert(1)> Nakamura");
    const doc = await page.getByTestId("certificate-document").innerText();
    for (const s of ["Fixture Basics", "Date Completed", "Valid Until", "Certificate ID", "Authorized Institution"])
      expect(doc).toContain(s);
    const certificateId = /HWA-[A-Z2-7]{16}/.exec(doc)?.[0];
    expect(certificateId).toBeTruthy();
    await expectAccessible(page, "certificate page");

    const linkedIn = await page.getByRole("link", { name: /Add to LinkedIn/ }).getAttribute("href");
    expect(linkedIn).toContain("startTask=CERTIFICATION_NAME");
    expect(linkedIn).toContain(`certId=${certificateId}`);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download PDF" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certificate-${certificateId}.pdf`);
    const saved = await download.path();
    expect(readFileSync(saved).subarray(0, 4).toString()).toBe("%PDF");
    await toastText(page).getByText("Download Started").waitFor();

    // No Web Share here (see above): the link is copied.
    await page.getByRole("button", { name: "Share Certificate" }).click();
    await toastText(page).getByText("Share Link Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`/verify/${certificateId}`);

    await page.goto("/course/fixture-basics");
    await page.getByText("Certificate Available!").waitFor();
    await page.getByRole("link", { name: "View Certificate" }).waitFor();

    await page.goto("/certificates");
    await page.getByTestId("certificate-fixture-basics").waitFor();
    expect(await page.locator("main").innerText()).toContain("Certificates Earned");
    await expectAccessible(page, "my certificates");
    // Download opens the certificate page, with its Download PDF, in a new tab.
    const [tab] = await Promise.all([
      page.context().waitForEvent("page"),
      page
        .getByTestId("certificate-fixture-basics")
        .getByRole("link", { name: /^Download certificate/ })
        .click(),
    ]);
    await tab.getByRole("button", { name: "Download PDF" }).waitFor();
    expect(new URL(tab.url()).pathname).toBe("/course/fixture-basics/certificate");
    await tab.close();

    await page.goto("/my-learning");
    await page.getByTestId("completed-fixture-basics").waitFor();

    // Anyone can verify it, signed out; the name is shown as text, never as markup.
    const visitor = await e2e.newPage();
    await visitor.goto(`/verify/${certificateId}`);
    await visitor.getByText("Valid certificate").waitFor();
    expect(await visitor.getByTestId("holder-name").innerText()).toBe("<img src=x onerror=alert(1)> Nakamura");
    expect(await visitor.locator("main img").count()).toBe(0);
    // The page's h1 comes first and takes focus; the verdict and the certificate are h2 under it.
    const headings = await visitor
      .locator("main")
      .locator("h1, h2, h3")
      .evaluateAll((els) => els.map((el) => `${el.tagName.toLowerCase()} ${(el as HTMLElement).innerText.trim()}`));
    expect(headings[0]).toBe("h1 Certificate verification");
    expect(headings.filter((h) => h.startsWith("h1 "))).toHaveLength(1);
    expect(headings).toContain("h2 Valid certificate");
    expect(headings).toContain("h2 Certificate of Completion");
    await expectAccessible(visitor, "verify page");

    await e2e.testDb.database.db
      .updateTable("certificate")
      .set({ revokedAt: new Date().toISOString() })
      .where("certificateId", "=", certificateId!)
      .execute();
    await visitor.reload();
    await visitor.getByText("This certificate has been revoked").waitFor();
    expect(await visitor.getByTestId("verification-status").innerText()).not.toContain("Valid certificate");

    // An unknown ID: the app's own page, with status 404.
    const unknown = await visitor.goto("/verify/HWA-AAAAAAAAAAAAAAAA");
    expect(unknown?.status()).toBe(404);
    await visitor.getByRole("heading", { name: "Certificate Not Found" }).waitFor();
  });

  it("shows 'Certificate Not Found' and the empty state to a learner without certificates", async () => {
    const page = await e2e.newPage();
    await signUpInBrowser(page, {
      firstName: "No",
      lastName: "Cert",
      email: `nocert-${Date.now()}@example.com`,
      password: "quiet-harbor-19",
    });
    await page.goto("/course/fixture-basics/certificate");
    await page.getByRole("heading", { name: "Certificate Not Found" }).waitFor();
    expect(await page.locator("main").innerText()).toContain(
      "This certificate could not be found. Make sure you have completed the course.",
    );
    await page.goto("/certificates");
    await page.getByRole("heading", { name: "No certificates yet" }).waitFor();
    await page.getByRole("link", { name: "Browse Courses" }).waitFor();
  });
});
