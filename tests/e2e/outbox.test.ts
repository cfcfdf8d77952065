import { describe, expect, it } from "vitest";
import { enqueueEmail } from "#server/mail/outbox.ts";
import { verificationLinkIn } from "../setup/test-smtp.ts";
import { expectFocused, tabTo } from "./focus.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

// The admin's Outbox page with the keyboard alone: a message the SMTP server refused (550) is found
// under Failed with its reason, opened as sent (HTML and text), closed, and retried.
const e2e = useE2E({
  env: { ADMIN_EMAILS: "postmaster@academy.example" },
  smtpRefuse: (address) =>
    address.startsWith("nobody-") ? { code: 550, message: "5.1.1 No such mailbox" } : undefined,
});

describe("the Outbox page", () => {
  it("shows a failed message with its reason, the message as sent, and retries it, by keyboard, axe-clean", async () => {
    const db = e2e.testDb.database.db;
    const refused = "nobody-outbox@example.com";
    await enqueueEmail(db, {
      to: refused,
      template: "sign-in-paused",
      data: { failures: 10, minutes: 15, signInUrl: `${e2e.baseUrl}/login` },
    });
    const statusOf = async () =>
      (await db.selectFrom("outboxEmail").select("status").where("toAddress", "=", refused).executeTakeFirst())?.status;
    await expect.poll(statusOf).toBe("failed");

    const page = await e2e.newPage();
    await signUpInBrowser(page, {
      firstName: "Pat",
      lastName: "Postmaster",
      email: "postmaster@academy.example",
      password: "harbor-light-58",
    });
    await expect.poll(() => e2e.inbox.some((m) => m.to.includes("postmaster@academy.example"))).toBe(true);
    await page.goto(verificationLinkIn(e2e.inbox.find((m) => m.to.includes("postmaster@academy.example"))!));
    await page.getByRole("link", { name: "Admin" }).waitFor();
    await page.goto("/admin/outbox");
    const heading = page.getByRole("heading", { name: "Outbox", level: 1 });
    await heading.waitFor();
    await page.getByRole("button", { name: /^Failed \(1\)$/ }).waitFor();
    await expectAccessible(page, "outbox, queued");

    // From the page's heading on, with the keyboard only.
    await heading.evaluate((el) => {
      el.setAttribute("tabindex", "-1");
      (el as HTMLElement).focus();
    });
    const failedTab = page.getByRole("button", { name: /^Failed \(1\)$/ });
    // Past the queued messages' rows (sign-ins now queue new-device notices too).
    await tabTo(page, failedTab, "the Failed button", 40);
    await page.keyboard.press("Enter");
    await expect.poll(() => failedTab.getAttribute("aria-pressed")).toBe("true");
    const row = page.getByRole("row").filter({ hasText: refused });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Failed after 1 attempt/);
    expect(await row.innerText()).toContain("550 5.1.1 No such mailbox");
    await expectAccessible(page, "outbox, failed");

    const view = page.getByRole("button", { name: `View the message to ${refused}` });
    await tabTo(page, view, "View");
    await page.keyboard.press("Enter");
    const subject = page.getByRole("heading", { name: /Sign-in to your .* account is paused/, level: 2 });
    await expectFocused(subject, "the message's heading");
    const html = page.frameLocator("iframe[title^='The message as HTML']");
    await html.getByText("with a wrong password 10 times", { exact: false }).first().waitFor();
    expect(await page.locator("pre").innerText()).toMatch(/paused/i);
    await expectAccessible(page, "outbox, a message open");
    await tabTo(page, page.getByRole("button", { name: "Close the message" }), "Close", 20);
    await page.keyboard.press("Enter");
    await expectFocused(view, "the View button again");

    const retry = page.getByRole("button", { name: `Retry the message to ${refused}` });
    await tabTo(page, retry, "Retry");
    await page.keyboard.press("Enter");
    await toastText(page).getByText("Message Queued Again").waitFor();
    await expectFocused(page.getByRole("heading", { name: "Failed messages", level: 2 }), "the list's heading");
    // Refused again by the server: back under Failed, with its attempts counted anew.
    await expect
      .poll(async () => {
        const row = await db
          .selectFrom("outboxEmail")
          .select(["status", "attempts"])
          .where("toAddress", "=", refused)
          .executeTakeFirst();
        return row && `${row.status}/${Number(row.attempts)}`;
      })
      .toBe("failed/1");
  });
});
