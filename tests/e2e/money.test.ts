import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { giveCertificate } from "../setup/factories.ts";
import { expectFocused, tabTo } from "./focus.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();
const year = String((new Date().getFullYear() + 3) % 100);
const db = () => e2e.testDb.database.db;

async function payWith4242(page: Page, total = "$20.00") {
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill(`12 / ${year}`);
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await toastText(page).getByText("Payment Successful!").waitFor();
  await page.waitForURL("**/course/fixture-basics");
}

async function signUp(page: Page, name: string) {
  const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
  await signUpInBrowser(page, { firstName: name, lastName: "Buyer", email, password: "orchard-bloom-38" });
  return email;
}

/** A certificate the learner already earned (completing the course is covered by the learning journeys). */
async function giveCertificateByEmail(email: string) {
  const user = await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return giveCertificate(db(), { ...user, firstName: "Rita", lastName: "Buyer" });
}

describe("money in the browser", () => {
  it("pay, refund as admin, course locked and certificate revoked, buy again, study again", async () => {
    const learner = await e2e.newPage();
    const email = await signUp(learner, "Rita");
    await learner.goto("/checkout/fixture-basics");
    await payWith4242(learner);
    await learner.getByRole("link", { name: /Lesson alpha-two/ }).click();
    await learner.getByRole("heading", { name: "Lesson alpha-two" }).waitFor();
    const certificateId = await giveCertificateByEmail(email);

    const admin = await e2e.newPage();
    const adminEmail = await signUp(admin, "Ada");
    await db().updateTable("user").set({ role: "admin" }).where("email", "=", adminEmail).execute();
    await admin.goto("/admin/orders");
    await admin.getByLabel("Search by e-mail, course, coupon or payment id").fill(email);
    // By keyboard: focus follows the inline confirmation in and out, and the warning is read with it.
    const refundButton = admin.getByRole("button", { name: `Refund order of ${email}` });
    await refundButton.focus();
    await admin.keyboard.press("Enter");
    const consequences = admin.getByTestId("refund-consequences");
    await consequences.waitFor();
    expect(await consequences.innerText()).toContain("their access to the course ends and its certificate is revoked");
    const confirm = admin.getByRole("button", { name: "Confirm refund" });
    await expectFocused(confirm, "Confirm refund");
    expect(await confirm.getAttribute("aria-describedby")).toBe(await consequences.getAttribute("id"));
    await expectAccessible(admin, "refund confirmation");
    await admin.keyboard.press("Tab");
    await expectFocused(admin.getByRole("button", { name: "Cancel" }), "Cancel");
    await admin.keyboard.press("Enter");
    await expectFocused(refundButton, "Refund again, after Cancel");
    await admin.keyboard.press("Enter");
    await expectFocused(confirm, "Confirm refund, the second time");
    await admin.keyboard.press("Enter");
    await toastText(admin).getByText("Order Refunded").waitFor();
    await admin.getByText(/^Refunded /).waitFor();
    // The button is gone: focus is on its cell, not the page body.
    await expect.poll(() => admin.evaluate(() => document.activeElement?.tagName)).toBe("TD");

    // The learner's course is locked again.
    await learner.goto("/course/fixture-basics");
    await learner.getByText("Course Preview Mode").waitFor();
    await learner.goto("/course/fixture-basics/lesson/alpha-two");
    await learner.getByRole("heading", { name: "Preview Mode Only" }).waitFor();

    // Anyone checking the certificate sees it revoked, and why.
    const visitor = await e2e.newPage();
    await visitor.goto(`/verify/${certificateId}`);
    await visitor.getByText("This certificate has been revoked").waitFor();
    expect(await visitor.getByTestId("revoked-reason").innerText()).toBe("Reason: refunded");

    // Buying again works, and the learner studies again.
    await learner.goto("/checkout/fixture-basics");
    await payWith4242(learner);
    await learner.getByRole("link", { name: /Lesson alpha-two/ }).click();
    await learner.getByRole("heading", { name: "Lesson alpha-two" }).waitFor();
  });

  it("revoking a certificate by keyboard: focus into the reason, back on Cancel, on the row after", async () => {
    const learner = await e2e.newPage();
    const email = await signUp(learner, "Remy");
    await e2e.enrol(email, "fixture-basics");
    await giveCertificateByEmail(email);
    const admin = await e2e.newPage();
    const adminEmail = await signUp(admin, "Ida");
    await db().updateTable("user").set({ role: "admin" }).where("email", "=", adminEmail).execute();
    await admin.goto("/admin/learners");
    await admin.getByLabel(/^Search/).fill(email);
    const revoke = admin.getByRole("button", { name: /^Revoke certificate HWA-/ });
    await revoke.focus();
    await admin.keyboard.press("Enter");
    const reason = admin.getByLabel("Reason");
    await expectFocused(reason, "the reason field");
    await tabTo(admin, admin.getByRole("button", { name: "Cancel" }), "Cancel", 3);
    await admin.keyboard.press("Enter");
    await expectFocused(revoke, "Revoke, after Cancel");
    await admin.keyboard.press("Enter");
    await expectFocused(reason, "the reason field again");
    // No reason: refused by the field, before any request.
    await admin.keyboard.press("Enter");
    await admin.getByRole("alert").getByText("Give a reason.").waitFor();
    expect(await reason.getAttribute("aria-invalid")).toBe("true");
    await expectFocused(reason, "the reason field, refused");
    await admin.keyboard.type("Issued in error");
    await admin.keyboard.press("Enter");
    await toastText(admin).getByText("Certificate Revoked").waitFor();
    await expect.poll(() => admin.evaluate(() => document.activeElement?.tagName)).toBe("TD");
    expect(await revoke.count()).toBe(0);
    await expectAccessible(admin, "learners after a revoke");
  });

  it("typing and retyping a coupon code checks it once typing pauses: the check's limit never shows", async () => {
    await createCoupon(db(), { code: "SPRING25", percentOff: 25 });
    const page = await e2e.newPage();
    await signUp(page, "Dora");
    await page.goto("/checkout/fixture-basics");
    await page.getByLabel("Card number").waitFor();
    let checks = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/validate-coupon")) checks++;
    });
    const field = page.getByLabel("Coupon code");
    // 27 keystrokes: one check each would pass the 20-a-minute limit and answer "Too many requests".
    for (const code of ["SPRING2", "SPRING25", "SPRING25"]) {
      await field.fill("");
      await field.pressSequentially(code);
    }
    await page.getByRole("button", { name: "Pay $15.00" }).waitFor();
    expect(await page.getByText(/Too many requests/).count()).toBe(0);
    expect(checks).toBeLessThan(20);
  });

  it("an invalid coupon takes the earlier discount away at once, and shows as an error", async () => {
    await createCoupon(db(), { code: "HALFOFF", percentOff: 50 });
    const page = await e2e.newPage();
    await signUp(page, "Carla");
    await page.goto("/checkout/fixture-basics");
    await page.getByLabel("Card number").waitFor();
    await page.getByLabel("Coupon code").fill("HALFOFF");
    await toastText(page).getByText("Coupon Applied!").waitFor();
    await page.getByRole("button", { name: "Pay $10.00" }).waitFor();
    expect(await page.getByTestId("order-total").innerText()).toBe("$10.00");

    await page.getByLabel("Coupon code").fill("HALFOFFX");
    await page.getByRole("alert").getByText("Invalid coupon code").waitFor();
    expect(await page.getByLabel("Coupon code").getAttribute("aria-invalid")).toBe("true");
    await page.getByRole("button", { name: "Pay $20.00" }).waitFor();
    expect(await page.getByTestId("order-total").innerText()).toBe("$20.00");
    await payWith4242(page);
    const order = await db()
      .selectFrom("order")
      .innerJoin("user", "user.id", "order.userId")
      .select(["order.amount", "order.couponCode"])
      .where("user.firstName", "=", "Carla")
      .where("order.status", "=", "paid")
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ amount: 2000, couponCode: null });
  });
});
