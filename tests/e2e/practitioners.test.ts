import { describe, expect, it } from "vitest";
import { completeFixtureCourse, expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";
import { expectNoSideScrollAt200, setTextSize200 } from "./large-text.ts";

const e2e = useE2E();

describe("practitioner directory in the browser", () => {
  it("a certificate holder opts in from the profile, is found by region and course, and opts out", async () => {
    const page = await e2e.newPage();
    const email = `listed-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Maren", lastName: "Ødegaard", email, password: "harbour-kite-58" });
    await e2e.enrol(email, "fixture-basics");
    expect(await completeFixtureCourse(page)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    const certificateId = await page.evaluate(async () => {
      const res = await fetch("/api/certificate", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ courseId: "fixture-basics" }),
      });
      return ((await res.json()) as { certificateId: string }).certificateId;
    });
    expect(certificateId).toMatch(/^HWA-/);

    // With no practitioner app configured, "Register as Practitioner" leads to the page that explains
    // registration and what is verified, and from there to the directory.
    await page.goto("/course/fixture-basics/certificate");
    await page.getByRole("link", { name: "Register as Practitioner" }).click();
    await page.getByRole("heading", { name: "Register as a practitioner", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "What is verified" }).waitFor();
    await page.getByRole("link", { name: "Browse the directory" }).click();
    await page.getByRole("heading", { name: "Find a coach who holds our Certificate of Completion" }).waitFor();

    await page.goto("/profile");
    await page.getByRole("heading", { name: "Practitioner directory" }).waitFor();
    await page.getByLabel("Public display name").fill("Maren Ø. Coaching");
    await page.getByLabel("City or region").fill("Tromsø, Norway");
    await page.getByLabel("Short bio").fill("Nutrition coaching for shift workers and their families.");
    await page.getByLabel("Contact link").fill("javascript:alert(1)");
    await page.getByRole("button", { name: "List me in the directory" }).click();
    await page.getByRole("alert").filter({ hasText: "https:// or mailto:" }).waitFor();
    await page.getByLabel("Contact link").fill("mailto:maren@example.com");
    await page.getByRole("button", { name: "List me in the directory" }).click();
    await page.getByText("You are listed.").waitFor();

    await page.goto("/practitioners");
    await page.getByRole("combobox", { name: "Course" }).selectOption("fixture-basics");
    await page.getByLabel("City or region").fill("tromso");
    await page.getByRole("button", { name: "Search" }).click();
    const card = page.getByRole("listitem").filter({ hasText: "Maren Ø. Coaching" });
    await card.waitFor();
    expect(await card.innerText()).toContain("Tromsø, Norway");
    await expectAccessible(page, "practitioner directory");

    // On a 390 px phone at 200% text the listing fits, and its certificate ID breaks only at its
    // hyphen (each group of characters stays on one line), as on My Certificates.
    await page.setViewportSize({ width: 390, height: 844 });
    await setTextSize200(page);
    await page.reload();
    await card.waitFor();
    await expectNoSideScrollAt200(page, "/practitioners with a listing");
    // Each group of the ID ("HWA-", then the 16 characters) is one text node drawn on one line.
    const groupLines = async () =>
      page.evaluate(() =>
        [...document.querySelectorAll("[data-certificate-id]")].flatMap((id) =>
          [...id.childNodes]
            .filter((node) => node.nodeType === Node.TEXT_NODE)
            .map((node) => {
              const range = document.createRange();
              range.selectNodeContents(node);
              return range.getClientRects().length;
            }),
        ),
      );
    expect(await groupLines()).toEqual([1, 1]);
    await page.goto("/certificates");
    await page.getByTestId("certificate-fixture-basics").waitFor();
    await expectNoSideScrollAt200(page, "/certificates");
    expect(await groupLines()).toEqual([1, 1]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/practitioners");
    await page.getByRole("combobox", { name: "Course" }).selectOption("fixture-basics");
    await page.getByLabel("City or region").fill("tromso");
    await page.getByRole("button", { name: "Search" }).click();
    await card.waitFor();
    await card.getByRole("link", { name: new RegExp(`verify certificate ${certificateId}`) }).click();
    await page.getByTestId("verification-status").waitFor();
    expect(page.url()).toContain(`/verify/${certificateId}`);
    // The holder is offered the credential; the server's signature check is shown to everyone.
    await page.getByRole("button", { name: "Download credential" }).waitFor();
    await page.getByText("Signature verified. The credential is valid and not revoked.").waitFor();

    await page.goto("/profile");
    await page.getByRole("button", { name: "Remove me from the directory" }).click();
    await page.getByText("You are not listed.").waitFor();
    await page.goto("/practitioners?region=tromso");
    await page.getByText("No practitioners match this search yet.").waitFor();
  });
});
