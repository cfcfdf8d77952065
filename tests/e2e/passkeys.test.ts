import { describe, expect, it } from "vitest";
import { expectFocused, tabInDialogTo } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, toastText, useE2E } from "./harness.ts";

// Passkeys with Chromium's virtual WebAuthn authenticator, through the DevTools protocol (decision
// 0054). WebAuthn needs a host name, so the app runs as localhost here.
const e2e = useE2E({ hostname: "localhost", env: { STAFF_SECOND_FACTOR: "on" } });

describe("passkeys", () => {
  it("adds a named passkey, signs out and in with it, and removes it; a staff role counts it", async () => {
    const account = await createAccount(e2e);
    const db = e2e.testDb.database.db;
    await db.updateTable("user").set({ role: "admin" }).where("email", "=", account.email).execute();
    const page = await e2e.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signInInBrowser(page, account.email, account.password);
    await page.getByText("Your admin role needs two-factor sign-in or a passkey").waitFor();
    await page.goto("/profile");
    await page.getByRole("heading", { name: "Passkeys" }).waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByText("Name the passkey").waitFor();
    await page.getByLabel("Name of the new passkey").fill("Work laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await toastText(page).getByText("Passkey added").waitFor();
    await page.getByRole("list", { name: "Your passkeys" }).getByText("Work laptop").waitFor();
    await expectAccessible(page, "profile with a passkey");
    // The passkey is a second factor: the admin role is in force.
    await page.getByRole("link", { name: "Admin" }).first().waitFor();

    // Password sign-in off: adding a passkey confirmed nothing, so the step-up prompt asks, and offers
    // the passkey (the account has no authenticator app); reached and used with the keyboard alone.
    await page.getByRole("button", { name: "Turn password sign-in off" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await dialog.getByText("This action needs one of your passkeys.").waitFor();
    await expectAccessible(page, "step-up prompt with a passkey");
    expect(await dialog.getByLabel("6-digit code").isVisible()).toBe(false);
    const usePasskey = dialog.getByRole("button", { name: "Use a passkey" });
    await tabInDialogTo(page, usePasskey, "Use a passkey");
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Password sign-in is off").waitFor();
    await dialog.waitFor({ state: "detached" });
    await expectFocused(page.getByRole("button", { name: "Turn password sign-in on" }), "the toggle after the change");
    const row = await db
      .selectFrom("user")
      .select("passwordSignIn")
      .where("email", "=", account.email)
      .executeTakeFirst();
    expect(row?.passwordSignIn).toBe(false);

    // The password is refused, with a message that names the way in.
    await page.context().clearCookies();
    await signInInBrowser(page, account.email, account.password);
    await page.getByRole("alert").getByText("This account signs in with a passkey only.", { exact: false }).waitFor();

    // Sign out, then in with the passkey alone.
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await toastText(page).getByText("Welcome back!").waitFor();
    const me = await page.evaluate(async () => (await fetch("/api/auth/user")).json());
    expect(me).toMatchObject({ email: account.email, role: "admin" });
    const passkeys = await db.selectFrom("passkey").select(["name", "userId"]).execute();
    expect(passkeys.map((p) => p.name)).toEqual(["Work laptop"]);

    // A passkey sign-in counts as a confirmation: password sign-in goes back on without a prompt.
    await page.goto("/profile");
    // Keyboard alone: the toggle is the stop before the new passkey's name.
    await page.getByLabel("Name of the new passkey").focus();
    await page.keyboard.press("Shift+Tab");
    await expectFocused(page.getByRole("button", { name: "Turn password sign-in on" }), "the toggle, by Shift+Tab");
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Password sign-in is on").waitFor();

    // Removed: the role waits again.
    await page.goto("/profile");
    await page.getByRole("button", { name: "Remove passkey Work laptop" }).click();
    await toastText(page).getByText("Passkey removed").waitFor();
    await page.getByText("No passkey yet.").waitFor();
    expect(await db.selectFrom("passkey").select("id").execute()).toEqual([]);
    await page.getByText("Your admin role needs two-factor sign-in or a passkey").first().waitFor();
  });
});
