import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectFocused } from "./focus.ts";
import { createAccount, expectAccessible, signInInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();
const year = String((new Date().getFullYear() + 3) % 100);

async function signedIn() {
  const account = await createAccount(e2e);
  const page = await e2e.newPage();
  await signInInBrowser(page, account.email, account.password);
  await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
  return { page, ...account };
}

describe("the learner's account", () => {
  it("e-mails a receipt after a card payment and finds it again under Purchases, from the avatar menu by keyboard", async () => {
    const { page, email } = await signedIn();
    await page.goto("/checkout/fixture-basics");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill(`12 / ${year}`);
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await toastText(page).getByText("Payment Successful!").waitFor();
    await page.waitForURL("**/course/fixture-basics");

    await expect
      .poll(() => e2e.inbox.find((m) => m.to.includes(email) && m.raw.includes("Receipt for Fixture Basics")), {
        timeout: 20_000,
      })
      .toBeTruthy();
    const receiptMail = e2e.inbox.find((m) => m.to.includes(email) && m.raw.includes("Receipt for Fixture Basics"));
    expect(receiptMail?.raw).toContain("$20.00");

    // The course page has rendered and taken focus for its heading (route focus), so the
    // avatar's focus below is the user's own and stays.
    await expectFocused(page.locator("main h1"), "the course page's heading after the redirect");

    // The avatar menu, keys only.
    const avatar = page.getByRole("button", { name: /Your account/ });
    await avatar.focus();
    await expectFocused(avatar, "the avatar");
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await menu.getByRole("menuitem").allInnerTexts()).toEqual([
      "Profile",
      "Purchases",
      "My Certificates",
      "What's new",
      "Logout",
    ]);
    await expectAccessible(page, "avatar menu open");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    await expectFocused(avatar, "the avatar after Escape");
    await page.keyboard.press("Enter");
    await menu.waitFor();
    // Opened with a key, the menu focuses its first item.
    await expectFocused(menu.getByRole("menuitem", { name: "Profile" }), "Profile, first in the menu");
    await page.keyboard.press("ArrowDown");
    await expectFocused(menu.getByRole("menuitem", { name: "Purchases" }), "Purchases in the menu");
    await page.keyboard.press("Enter");

    await page.getByRole("heading", { name: "Purchases", level: 1 }).waitFor();
    const row = page.getByTestId("purchase-fixture-basics");
    expect(await row.innerText()).toContain("$20.00");
    await expectAccessible(page, "purchases");
    await row.getByRole("link", { name: /Receipt/ }).click();
    const receipt = page.getByTestId("receipt");
    await receipt.waitFor();
    const orderNumber = (await receipt.innerText()).match(/Order number\s+(\S+)/)?.[1];
    expect(orderNumber).toBeTruthy();
    expect(receiptMail?.raw).toContain(orderNumber);
    expect(await receipt.innerText()).toContain("Fixture Basics");
    await page.getByRole("button", { name: "Print receipt" }).waitFor();
    await expectAccessible(page, "receipt");
  });

  it("downloads the learner's data as JSON and deletes the account with the password", async () => {
    const { page, email, password } = await signedIn();
    await e2e.enrol(email, "fixture-basics");
    await page.goto("/profile");
    await page.getByRole("heading", { name: "Your data" }).waitFor();
    await expectAccessible(page, "profile with Your data");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("my-academy-data.json");
    const data = JSON.parse(readFileSync((await download.path()) as string, "utf8"));
    expect(data.account.email).toBe(email);
    expect(data.enrollments.map((e: { courseId: string }) => e.courseId)).toEqual(["fixture-basics"]);

    await page.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    await expectAccessible(page, "delete account dialog");
    await dialog.getByLabel("Password", { exact: true }).fill("not-the-password");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByRole("alert").getByText("That password is not right. Your account was not deleted.").waitFor();
    await dialog.getByLabel("Password", { exact: true }).fill(password);
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("banner").getByRole("link", { name: "Sign In" }).waitFor();

    // Signed out, and the old password opens nothing.
    await signInInBrowser(page, email, password);
    await toastText(page).getByText("Sign In Failed").waitFor();
  });
});
