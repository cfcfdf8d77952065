import { describe, expect, it } from "vitest";
import { authenticatorFor } from "../setup/second-factor.ts";
import { expectFocused, tabInDialogTo, tabTo } from "./focus.ts";
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
    // A staff area asks for the set-up before anything else; reached by keyboard from there.
    await page.goto("/admin/orders");
    await page.getByRole("heading", { name: "Set up a second factor first", level: 1 }).waitFor();
    await expectAccessible(page, "staff set-up page");
    await page.locator("main").focus();
    const setUp = page.getByRole("link", { name: "Set up two-factor sign-in or a passkey" });
    await tabTo(page, setUp, "the set-up link");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    await expectAccessible(page, "profile with the security card");

    // A wrong password is said next to the field and keeps focus there.
    await page.getByLabel("Your password").fill("not-my-password");
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await page.getByRole("alert").waitFor();
    await expectFocused(page.getByLabel("Your password"), "the password after a refusal");

    // The keyboard alone from here: Enter in a field sends its form.
    await page.getByLabel("Your password").fill(account.password);
    await page.getByLabel("Your password").press("Enter");
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const key = (await page.locator("code").first().innerText()).replace(/\s/g, "");
    const app = authenticatorFor(`otpauth://totp/x?secret=${key}`);
    await expectFocused(page.getByLabel("Code from the app"), "the code field once the QR code shows");
    await expectAccessible(page, "QR code and manual key");
    await page.keyboard.type(await app.code());
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Two-factor sign-in is on").waitFor();
    await expectAccessible(page, "backup codes shown once");
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
    await second.keyboard.type(await app.code(1));
    await second.keyboard.press("Enter");
    await toastText(second).getByText("Welcome back!").waitFor();

    // And with a backup code, once.
    const third = await e2e.newPage();
    await signInInBrowser(third, account.email, account.password);
    await third.getByRole("button", { name: "Use a backup code instead" }).click();
    await third.getByLabel("Backup code", { exact: true }).fill(codes[0] ?? "");
    await third.getByRole("button", { name: "Continue" }).click();
    await toastText(third).getByText("Welcome back!").waitFor();

    // Your sessions: three browsers; the others signed out with the keyboard, on the spot.
    await page.goto("/profile");
    const others = page.getByRole("button", { name: "Sign out all other sessions" });
    await others.waitFor();
    await expectAccessible(page, "profile with the sessions list");
    await others.focus();
    await page.keyboard.press("Enter");
    await toastText(page)
      .getByText(/Every other session: [0-9]+ sessions? ended/)
      .waitFor();
    await expectFocused(page.getByRole("heading", { name: "Your sessions" }), "the sessions heading after signing out");
    expect(await third.evaluate(async () => (await fetch("/api/auth/user")).json())).toBeNull();
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
    const firstCode = await app.code();
    await page.getByLabel("Code from the app").fill(firstCode);
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await toastText(page).getByText("Two-factor sign-in is on").waitFor();
    // Eleven minutes later, as far as the session knows.
    const user = await db.selectFrom("user").select("id").where("email", "=", account.email).executeTakeFirstOrThrow();
    const elevenMinutesLater = () =>
      db
        .updateTable("session")
        .set({ secondFactorAt: new Date(Date.now() - 11 * 60_000).toISOString() })
        .where("userId", "=", user.id)
        .execute();
    await elevenMinutesLater();

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
    // Keyboard alone: the code typed in the focused field, Enter confirms.
    const couponCode = await app.code(1);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(couponCode);
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Coupon Created").waitFor();
    await dialog.waitFor({ state: "detached" });
    expect(await db.selectFrom("coupon").select("code").where("code", "=", "STEPUP15").executeTakeFirst()).toBeTruthy();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.tagName ?? "none"), {
        message: "focus after the action",
        timeout: 10_000,
      })
      .not.toBe("BODY");

    // Recovery from the learners page: confirmed, asked again past the 10 minutes, audited, e-mailed.
    const member = await createAccount(e2e, { firstName: "Lost", lastName: "Factors" });
    const target = await db.selectFrom("user").select("id").where("email", "=", member.email).executeTakeFirstOrThrow();
    await elevenMinutesLater();
    await page.goto("/admin/learners");
    await page.getByLabel("Search by name or e-mail").fill(member.email);
    const resetButton = page.getByRole("button", { name: `Reset sign-in factors of ${member.email}` });
    await resetButton.waitFor();
    await resetButton.focus();
    await page.keyboard.press("Enter");
    const question = page.getByRole("alertdialog", { name: `Reset the sign-in factors of ${member.email}?` });
    await question.waitFor();
    await expectAccessible(page, "reset confirmation");
    await tabInDialogTo(page, question.getByRole("button", { name: "Reset sign-in factors" }), "the confirm button");
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.type(await app.freshCode(firstCode, couponCode));
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Sign-in factors reset").waitFor();
    await expectFocused(resetButton, "the row's reset button after the reset");
    const audit = await db.selectFrom("auditLog").select("action").where("target", "=", member.email).execute();
    expect(audit).toEqual([{ action: "second-factors.reset" }]);
    const told = await db
      .selectFrom("outboxEmail")
      .select("data")
      .where("userId", "=", target.id)
      .where("template", "=", "account-security")
      .execute();
    expect(told.map((r) => JSON.parse(r.data).event)).toContain("factors-reset");
  });
});
