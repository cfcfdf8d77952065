import { describe, expect, it } from "vitest";
import { nth } from "../setup/must.ts";
import { resetLinkIn } from "../setup/test-smtp.ts";
import { expectFocused } from "./focus.ts";
import { expectAccessible, signInInBrowser, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();

describe("public pages", () => {
  it("shows the landing page with the marketing content, courses, disclaimer and legal links", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page
      .getByRole("heading", { name: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify" })
      .waitFor();
    await page.getByRole("heading", { name: "Fixture Basics" }).waitFor();
    const text = await page.locator("main").innerText();
    for (const claim of [
      "$50-150 per session",
      "24/7 flexible hours",
      "1000+",
      "2,000+",
      "0%",
      "about 5 hours of study, including the practical assessment",
      "independent, reputable information",
      "What our graduates say",
      "not medical advice",
      "$20.00",
    ]) {
      expect(text).toContain(claim);
    }
    expect(text).not.toContain("Fixture Soon");
    await page.getByRole("link", { name: "Terms of Service" }).first().waitFor();
    const support = page.getByRole("link", { name: /Support:/ });
    expect(await support.getAttribute("href")).toBe("mailto:support@wellness-academy.example");
    await expectAccessible(page, "landing");

    await page.getByRole("link", { name: "Terms of Service" }).first().click();
    await page.getByRole("heading", { name: "Terms of Service", level: 1 }).waitFor();
    expect(await page.locator("main").innerText()).toContain("January 31, 2025");
    for (const section of [
      "Agreement",
      "Enrollment and certification",
      "Payment and refunds",
      "Intellectual property",
      "Professional conduct",
      "Liability",
      "Contact",
    ]) {
      await page.getByRole("heading", { name: new RegExp(`\\d+\\. ${section}$`) }).waitFor();
    }
    await expectAccessible(page, "terms");
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page
      .getByRole("heading", { name: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify" })
      .waitFor();

    await page.goto("/privacy");
    for (const section of [
      "Information we collect",
      "How we use information",
      "Sharing",
      "Security",
      "Your rights",
      "Cookies",
      "Children",
      "Changes",
      "Contact",
    ]) {
      await page.getByRole("heading", { name: new RegExp(`\\d+\\. ${section}$`) }).waitFor();
    }
    await expectAccessible(page, "privacy");
  });

  it("shows '404 Page Not Found' for an unknown route", async () => {
    const page = await e2e.newPage();
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await expectAccessible(page, "404");
  });

  it("opens and closes the menu on a phone-sized screen", async () => {
    const page = await e2e.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    await toggle.focus();
    await page.keyboard.press("Enter");
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await mobile.waitFor();
    expect(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
    await mobile.getByRole("link", { name: "Get Certified" }).click();
    await page.getByRole("tab", { name: "Sign Up", selected: true }).waitFor();
    expect(await mobile.isVisible()).toBe(false);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, "login on a phone");
  });
});

describe("accounts in the browser", () => {
  it("signs up, signs out and signs in again", async () => {
    const page = await e2e.newPage();
    const user = {
      firstName: "Grace",
      lastName: "Hopper",
      email: `grace-${Date.now()}@example.com`,
      password: "harbor-lights-88",
    };
    await page.goto("/login");
    await expectAccessible(page, "login");
    await signUpInBrowser(page, user);
    await page.getByRole("button", { name: /Your account/ }).waitFor();
    expect(await page.getByRole("button", { name: /Your account/ }).innerText()).toBe("G");
    expect(await page.getByRole("button", { name: /^G: Your account/ }).count()).toBe(1);
    await expectAccessible(page, "catalogue");

    await page.getByRole("button", { name: "Logout" }).click();
    await page
      .getByRole("heading", { name: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify" })
      .waitFor();

    await signInInBrowser(page, user.email, user.password);
    await toastText(page).getByText("Welcome back!").waitFor();
    expect(await toastText(page).innerText()).toContain("You've successfully signed in to your account.");
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
  });

  it("signs up in one go: Account Created!, a pause, then the catalogue; a registered address gets Sign Up Failed", async () => {
    const page = await e2e.newPage();
    const email = `one-go-${Date.now()}@example.com`;
    await page.goto("/login?tab=signup");
    await page.getByLabel("First name").fill("Olga");
    await page.getByLabel("Last name").fill("Go");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("single-step-56");
    await page.getByRole("button", { name: "Create Account" }).click();
    const toast = toastText(page);
    await toast.getByText("Account Created!").waitFor();
    expect(await toast.innerText()).toContain("Redirecting you to the dashboard...");
    // The spec's 2000 ms pause: the toast is read on the sign-up page, then the app moves on by itself.
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
    await page.getByRole("button", { name: /^O: Your account/ }).waitFor();
    // The confirmation e-mail went out too.
    await expect.poll(() => e2e.inbox.some((m) => m.to.includes(email) && m.raw.includes("verify-email"))).toBe(true);

    await page.getByRole("button", { name: "Logout" }).click();
    await page
      .getByRole("heading", { name: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify" })
      .waitFor();
    await page.goto("/login?tab=signup");
    await page.getByLabel("First name").fill("Mallory");
    await page.getByLabel("Last name").fill("Again");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("another-step-57");
    await page.getByRole("button", { name: "Create Account" }).click();
    await toast.getByText("Sign Up Failed").waitFor();
    expect(await toast.innerText()).toMatch(/already exists/);
    const alert = page.locator("main").getByRole("alert");
    expect(await alert.innerText()).toMatch(/Sign in instead.*reset/);
    await page.getByRole("link", { name: "Go to Sign In" }).click();
    await page.getByRole("tab", { name: "Sign In", selected: true }).waitFor();
    await expect.poll(() => e2e.inbox.some((m) => m.to.includes(email) && /tried to create/i.test(m.raw))).toBe(true);
  });

  it("checks a sign-up in the browser by the server's own rules before sending it: problems named, fields marked, focus on the first", async () => {
    const page = await e2e.newPage();
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/sign-up")) sent.push(request.url());
    });
    await page.goto("/login?tab=signup");
    const main = page.locator("main");
    const firstName = main.getByLabel("First name");
    const email = main.getByLabel("Email");
    await firstName.fill("   ");
    await main.getByLabel("Last name").fill("Lamarr");
    await email.fill("hedy@");
    await main.getByLabel("Password", { exact: true }).fill("abc");
    await main.getByRole("button", { name: "Create Account" }).click();

    const alert = main.getByRole("alert");
    await alert.waitFor();
    const text = await alert.innerText();
    for (const message of [
      "First name is required",
      "Please enter a valid email address",
      "Password must be at least 6 characters long",
    ])
      expect(text).toContain(message);
    await expectFocused(firstName, "First name, the first field to fix");
    expect(await firstName.getAttribute("aria-invalid")).toBe("true");
    expect(await email.getAttribute("aria-describedby")).toContain(await alert.getAttribute("id"));
    expect(await main.getByLabel("Last name").getAttribute("aria-invalid")).toBeNull();
    await expectAccessible(page, "sign-up checked in the browser");
    expect(sent).toEqual([]);

    // Fixed, the form goes through.
    await firstName.fill("Hedy");
    await email.fill(`hedy-${Date.now()}@example.com`);
    await main.getByLabel("Password", { exact: true }).fill("frequency-hopping-42");
    await main.getByRole("button", { name: "Create Account" }).click();
    await toastText(page).getByText("Account Created!").waitFor();
    expect(sent).toHaveLength(1);
  });

  it("shows the Sign In Failed toast for a wrong password", async () => {
    const page = await e2e.newPage();
    await signInInBrowser(page, "nobody@example.com", "wrong-password");
    const toast = toastText(page);
    await toast.getByText("Sign In Failed").waitFor();
    expect(await toast.getAttribute("data-variant")).toBe("destructive");
    expect(await toast.innerText()).toContain("Invalid email or password");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
  });

  it("asks for an e-mail before sending a reset", async () => {
    const page = await e2e.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await toastText(page).getByText("Email Required").waitFor();
    expect(await toastText(page).innerText()).toContain("Please enter your email address first.");
  });

  it("resets a forgotten password from the e-mailed link; the new password works and the old one is refused", async () => {
    const page = await e2e.newPage();
    const user = {
      firstName: "Ada",
      lastName: "Lovelace",
      email: `ada-${Date.now()}@example.com`,
      password: "first-garden-21",
    };
    await signUpInBrowser(page, user);
    await page.getByRole("button", { name: "Logout" }).click();
    await page
      .getByRole("heading", { name: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify" })
      .waitFor();

    e2e.inbox.length = 0;
    await page.goto("/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await toastText(page).getByText("Password Reset Sent").waitFor();
    // Only the reset mail counts here (sign-up also mailed an e-mail verification link).
    const resets = () => e2e.inbox.filter((m) => m.raw.includes("reset-password"));
    await expect.poll(() => resets().length, { timeout: 10_000 }).toBe(1);
    const link = resetLinkIn(nth(resets(), 0));
    expect(link.startsWith(e2e.baseUrl)).toBe(true);

    await page.goto(link!);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await expectAccessible(page, "reset password");
    await page.getByLabel("New password", { exact: true }).fill("second-meadow-34");
    await page.getByLabel("Confirm new password", { exact: true }).fill("second-meadow-34");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await page.getByRole("tab", { name: "Sign In", selected: true }).waitFor();

    await signInInBrowser(page, user.email, user.password);
    await toastText(page).getByText("Sign In Failed").waitFor();

    await signInInBrowser(page, user.email, "second-meadow-34");
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
  });
});
