import { describe, expect, it } from "vitest";
import { authenticatorFor } from "../setup/second-factor.ts";
import { expectFocused } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, toastText, useE2E } from "./harness.ts";

// Two-factor sign-in through the screens (decision 0054), with the staff rule on as in production.
const e2e = useE2E({ env: { STAFF_SECOND_FACTOR: "on" } });

describe("two-factor sign-in from the profile", () => {
  it("an admin without a second factor is told on every page, sets one up, then signs in with a code", async () => {
    const account = await createAccount(e2e);
    await e2e.testDb.database.db
      .updateTable("user")
      .set({ role: "admin" })
      .where("email", "=", account.email)
      .execute();
    const page = await e2e.newPage();
    await signInInBrowser(page, account.email, account.password);
    await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
    await page.getByText("Your admin role needs two-factor sign-in or a passkey").waitFor();
    await page.getByRole("link", { name: "Set one up on your profile" }).click();
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    await expectAccessible(page, "profile with the security card");

    // A wrong password is said next to the field and keeps focus there.
    await page.getByLabel("Your password").fill("not-my-password");
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await page.getByRole("alert").waitFor();
    await expectFocused(page.getByLabel("Your password"), "the password after a refusal");

    await page.getByLabel("Your password").fill(account.password);
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const key = (await page.locator("code").first().innerText()).replace(/\s/g, "");
    const app = authenticatorFor(`otpauth://totp/x?secret=${key}`);
    await expectFocused(page.getByLabel("Code from the app"), "the code field once the QR code shows");
    await expectAccessible(page, "QR code and manual key");
    await page.getByLabel("Code from the app").fill(await app.code());
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await toastText(page).getByText("Two-factor sign-in is on").waitFor();
    const codes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allInnerTexts();
    expect(codes).toHaveLength(10);
    // The role is in force: the notice has gone and the header has Admin.
    await page.getByRole("link", { name: "Admin" }).first().waitFor();
    expect(await page.getByText("Your admin role needs").count()).toBe(0);

    // Sign in again in a fresh browser: the password, then a code from the app.
    const second = await e2e.newPage();
    await signInInBrowser(second, account.email, account.password);
    await second.getByRole("heading", { name: "Enter the code from your authenticator app" }).waitFor();
    await expectFocused(second.getByLabel("6-digit code"), "the code field after the password");
    await expectAccessible(second, "sign-in code step");
    await second.getByRole("button", { name: "Continue" }).click();
    await second.getByText("Enter the 6-digit code from your app.").waitFor();
    await second.getByLabel("6-digit code").fill(await app.code(1));
    await second.getByRole("button", { name: "Continue" }).click();
    await toastText(second).getByText("Welcome back!").waitFor();

    // And with a backup code, once.
    const third = await e2e.newPage();
    await signInInBrowser(third, account.email, account.password);
    await third.getByRole("button", { name: "Use a backup code instead" }).click();
    await third.getByLabel("Backup code", { exact: true }).fill(codes[0] ?? "");
    await third.getByRole("button", { name: "Continue" }).click();
    await toastText(third).getByText("Welcome back!").waitFor();
  });

  it("an action past the 10 minutes asks for a fresh code in a dialog, then goes through", async () => {
    const account = await createAccount(e2e);
    const db = e2e.testDb.database.db;
    await db.updateTable("user").set({ role: "admin" }).where("email", "=", account.email).execute();
    const page = await e2e.newPage();
    await signInInBrowser(page, account.email, account.password);
    await page.getByText("Your admin role needs two-factor sign-in or a passkey").waitFor();
    await page.goto("/profile");
    await page.getByLabel("Your password").fill(account.password);
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const key = (await page.locator("code").first().innerText()).replace(/\s/g, "");
    const app = authenticatorFor(`otpauth://totp/x?secret=${key}`);
    await page.getByLabel("Code from the app").fill(await app.code());
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await toastText(page).getByText("Two-factor sign-in is on").waitFor();
    // Eleven minutes later, as far as the session knows.
    const user = await db.selectFrom("user").select("id").where("email", "=", account.email).executeTakeFirstOrThrow();
    await db
      .updateTable("session")
      .set({ secondFactorAt: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where("userId", "=", user.id)
      .execute();

    await page.goto("/admin/coupons");
    await page.getByRole("heading", { name: "Coupons", level: 1 }).waitFor();
    await page.getByLabel("Code").fill("STEPUP15");
    await page.getByLabel("Percent (1-100)").fill("15");
    await page.getByRole("button", { name: "Create Coupon" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await dialog.waitFor();
    await expectAccessible(page, "step-up dialog");
    await dialog.getByLabel("6-digit code").fill("000000");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByRole("alert").waitFor();
    await expectFocused(dialog.getByLabel("6-digit code"), "the code after a wrong one");
    await dialog.getByLabel("6-digit code").fill(await app.code(1));
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await toastText(page).getByText("Coupon Created").waitFor();
    await dialog.waitFor({ state: "detached" });
    expect(await db.selectFrom("coupon").select("code").where("code", "=", "STEPUP15").executeTakeFirst()).toBeTruthy();
  });
});
