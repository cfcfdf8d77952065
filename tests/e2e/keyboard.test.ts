import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();

/** Waits until the element has focus (the app moves focus after renders and requests). */
async function expectFocused(locator: Locator, what: string) {
  await expect
    .poll(() => locator.evaluate((el) => el === document.activeElement).catch(() => false), {
      message: `focus on ${what}`,
      timeout: 10_000,
    })
    .toBe(true);
}

async function press(page: Page, key: string) {
  await page.keyboard.press(key);
}

describe("keyboard only", () => {
  it("signs up with an error, then successfully", async () => {
    const taken = { firstName: "Ada", lastName: "Lovelace", email: `ada-${Date.now()}@example.com` };
    await signUpInBrowser(await e2e.newPage(), { ...taken, password: "engine-notes-1843" });

    const page = await e2e.newPage();
    await page.goto("/login?tab=signup");
    const main = page.locator("main");
    await main.getByRole("tab", { name: "Sign Up", selected: true }).waitFor();

    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Enter");
    await expectFocused(main, "the main content");
    await press(page, "Tab");
    await expectFocused(page.getByRole("tab", { name: "Sign Up" }), "the Sign Up tab");
    await press(page, "Tab");
    await expectFocused(page.getByRole("tabpanel", { name: "Sign Up" }), "the sign-up panel");
    await press(page, "Tab");
    const firstName = page.getByLabel("First name");
    await expectFocused(firstName, "First name");
    await page.keyboard.type("Grace");
    await press(page, "Tab");
    await expectFocused(page.getByLabel("Last name"), "Last name");
    await page.keyboard.type("Hopper");
    await press(page, "Tab");
    const email = main.getByLabel("Email");
    await expectFocused(email, "Email");
    await page.keyboard.type(taken.email);
    await press(page, "Tab");
    const password = main.getByLabel("Password", { exact: true });
    await expectFocused(password, "Password");
    await page.keyboard.type("compiler-bugs-1947");
    await press(page, "Tab");
    await expectFocused(page.getByRole("button", { name: "Show password" }), "Show password");
    await press(page, "Tab");
    await expectFocused(page.getByRole("button", { name: "Create Account" }), "Create Account");
    await press(page, "Enter");

    // The error is read out by the form, and focus goes to the field to fix.
    const alert = main.getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/already exists/i);
    await expectFocused(email, "Email, after the error");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await email.getAttribute("aria-describedby")).toContain(await alert.getAttribute("id"));
    expect(await firstName.getAttribute("aria-invalid")).toBeNull();
    await expectAccessible(page, "sign-up error");

    await press(page, "ControlOrMeta+a");
    await page.keyboard.type(`grace-${Date.now()}@example.com`);
    await press(page, "Enter");
    // Success: the new page's heading has focus and is announced.
    const heading = page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs", level: 1 });
    await expectFocused(heading, "the catalogue heading");
    await expect
      .poll(() => page.getByTestId("route-announcer").innerText())
      .toBe("Holistic Wellness Coach Certification Programs");
    expect(await main.getByRole("alert").count()).toBe(0);
  });

  it("closes the mobile menu with Escape and returns focus to its toggle", async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await press(page, "Tab");
    await expectFocused(page.getByRole("link", { name: "Skip to content" }), "the skip link");
    await press(page, "Tab");
    await expectFocused(page.getByRole("banner").getByRole("link").first(), "the logo");
    await press(page, "Tab");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expectFocused(toggle, "the menu toggle");
    await press(page, "Enter");
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await mobile.waitFor();
    await expectFocused(page.getByRole("button", { name: "Close menu" }), "the toggle, now Close menu");
    await press(page, "Tab");
    await expectFocused(mobile.getByRole("link").first(), "the first menu link");
    await press(page, "Escape");
    await mobile.waitFor({ state: "detached" });
    await expectFocused(page.getByRole("button", { name: "Open menu" }), "the menu toggle after Escape");
    expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
  });
});
