import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rollUpAnalytics } from "#server/modules/admin/analytics-rollup.ts";
import { createAccount, expectAccessible, signInInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();
const db = () => e2e.testDb.database.db;
const DAY = 86_400_000;
const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const daysAgo = (n: number) => new Date(today - n * DAY + DAY / 2).toISOString();

async function paidOrder(email: string, amount: number, paidAt: string) {
  const user = await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const id = randomUUID();
  await db()
    .insertInto("order")
    .values({
      id,
      userId: user.id,
      courseId: "fixture-basics",
      amount,
      originalAmount: amount,
      currency: "usd",
      couponId: null,
      couponCode: null,
      provider: "sandbox",
      providerPaymentId: `pay-${id}`,
      providerSessionId: null,
      kind: "intent",
      status: "paid",
      ownershipKey: `${user.id}:fixture-basics`,
      refundReason: null,
      paidAt,
      refundId: null,
      refundedAt: null,
      createdAt: paidAt,
      updatedAt: paidAt,
    })
    .execute();
}

describe("the owner's analytics dashboard", () => {
  it("opens as the admin landing page, changes period, reads a chart's table by keyboard and downloads its CSV", async () => {
    const owner = await createAccount(e2e, { firstName: "Olive", lastName: "Owner" });
    await db().updateTable("user").set({ role: "admin" }).where("email", "=", owner.email).execute();
    const buyerA = await createAccount(e2e);
    const buyerB = await createAccount(e2e);
    await paidOrder(buyerA.email, 2000, daysAgo(2));
    await paidOrder(buyerB.email, 2500, daysAgo(20));
    // Orders written into past days, as no request can: the rollup's next turn takes them in.
    await rollUpAnalytics(db());

    const page = await e2e.newPage();
    await signInInBrowser(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/analytics");
    const gross = page.locator('dl[aria-label="Sales figures"]');
    // Last 30 days (the default): both orders.
    await expect.poll(() => gross.innerText()).toContain("$45.00");
    await expectAccessible(page, "analytics, last 30 days");

    // Last 7 days: only the order two days ago, compared with the week before (nothing).
    await page.getByLabel("Period", { exact: true }).selectOption("7");
    await expect.poll(() => gross.innerText()).toContain("$20.00");
    expect(await gross.innerText()).not.toContain("$45.00");
    expect(await page.getByTestId("period-description").innerText()).toContain("compared with");

    // The revenue chart's data as a table, by keyboard: Tab to its disclosure, open it, Tab into the table.
    await page.getByLabel("Period", { exact: true }).focus();
    const disclosure = "Show the data of “Revenue by day” as a table";
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate((name) => document.activeElement?.textContent?.trim() === name, disclosure);
    }
    expect(reached, "the table's disclosure is reachable with Tab").toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => ({
      label: document.activeElement?.getAttribute("aria-label"),
      text: (document.activeElement as HTMLElement | null)?.innerText ?? "",
    }));
    expect(focused.label).toMatch(/^Revenue by day, /);
    const dayLabel = new Date(today - 2 * DAY).toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    });
    const table = page.getByRole("table", { name: /^Revenue by day, / });
    const row = table.getByRole("row").filter({ hasText: dayLabel });
    expect(await row.innerText()).toMatch(/\$20\.00\s+\$0\.00\s+\$20\.00\s+1/);
    expect(await table.getByRole("row").count()).toBe(8); // the header and 7 days
    await expectAccessible(page, "analytics, revenue table open");

    // The same table as CSV.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV: Revenue by day" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^analytics-sales-over-time-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = readFileSync((await download.path()) as string, "utf8")
      .trim()
      .split("\r\n");
    expect(csv[0]).toBe("period_start,gross_usd,refunds_usd,net_usd,orders");
    expect(csv).toContain(`${new Date(today - 2 * DAY).toISOString().slice(0, 10)},20.00,0.00,20.00,1`);
    expect(csv).toHaveLength(8);
  });
});
