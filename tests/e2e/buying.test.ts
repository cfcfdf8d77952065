import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { expectAccessible, signUpInBrowser, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();
const year = String((new Date().getFullYear() + 3) % 100);

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM / YY)").fill(`12 / ${year}`);
  await page.getByLabel("Security code (CVC)").fill("123");
}
const newLearner = (page: Page, name: string) =>
  signUpInBrowser(page, {
    firstName: name,
    lastName: "Buyer",
    email: `${name.toLowerCase()}-${Date.now()}@example.com`,
    password: "orchard-bloom-38",
  });

describe("buying in the browser", () => {
  it("buys a course with 4242, lands on the course, and lesson 2 is open", async () => {
    const page = await e2e.newPage();
    await newLearner(page, "Paula");
    await page.getByTestId("course-card-fixture-basics").getByRole("link", { name: "Buy Now - $20.00" }).click();
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    await page.getByLabel("Card number").waitFor();
    expect(await page.getByTestId("order-total").innerText()).toBe("$20.00");
    await expectAccessible(page, "checkout");
    await fillCard(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await toastText(page).getByText("Payment Successful!").waitFor();
    expect(await toastText(page).innerText()).toContain(
      "Welcome to Fixture Basics! You can now access all course materials.",
    );
    await page.waitForURL("**/course/fixture-basics");
    await page.getByRole("link", { name: /Lesson alpha-two/ }).click();
    await page.getByRole("heading", { name: "Lesson alpha-two" }).waitFor();
  });

  it("shows 'Payment Failed' for 0002 and enrols nobody", async () => {
    const page = await e2e.newPage();
    await newLearner(page, "Declan");
    await page.goto("/checkout/fixture-basics");
    await page.getByLabel("Card number").waitFor();
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await toastText(page).getByText("Payment Failed").waitFor();
    expect(await toastText(page).innerText()).toContain("Your card was declined.");
    // The error also shows by the card form, and focus returns to the card number it concerns.
    const form = page.getByRole("form", { name: "Card payment" });
    await form.getByRole("alert").getByText("Your card was declined.").waitFor();
    const cardNumber = page.getByLabel("Card number");
    await expect.poll(() => cardNumber.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await cardNumber.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await cardNumber.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toContain("Your card was declined.");
    await page.goto("/course/fixture-basics");
    await page.getByText("Course Preview Mode").waitFor();
  });

  it("shows 'Payment Processing' for the processing test card, then enrols once the payment settles", async () => {
    const page = await e2e.newPage();
    await newLearner(page, "Priya");
    await page.goto("/checkout/fixture-other");
    await page.getByLabel("Card number").waitFor();
    await fillCard(page, "4000 0000 0000 0077");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await toastText(page).getByText("Payment Processing").waitFor();
    expect(await toastText(page).innerText()).toContain("Your payment is being processed. Please wait...");
    await toastText(page).getByText("Payment Successful!").waitFor({ timeout: 20_000 });
    await page.waitForURL("**/course/fixture-other");
  });

  it("the hosted checkout with the processing card says so, then enrols once the payment settles", async () => {
    const page = await e2e.newPage();
    await newLearner(page, "Pavel");
    await page.goto("/simple-checkout/fixture-other");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Secure checkout").waitFor();
    await fillCard(page, "4000 0000 0000 0077");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await page.getByRole("heading", { name: "Payment Processing" }).waitFor();
    await expectAccessible(page, "hosted checkout, payment processing");
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor({ timeout: 20_000 });
    await page.getByRole("link", { name: "Start Learning Now" }).click();
    await page.getByTestId("in-progress-fixture-other").waitFor();
  });

  it("turns a 100% coupon into 'Claim Free Course' and enrols the learner", async () => {
    await createCoupon(e2e.testDb.database.db, { code: "GIFT100", percentOff: 100 });
    const page = await e2e.newPage();
    await newLearner(page, "Fran");
    await page.goto("/checkout/fixture-basics");
    await page.getByLabel("Card number").waitFor();
    const apply = page.getByRole("button", { name: "Apply coupon" });
    expect(await apply.isDisabled()).toBe(true);
    await page.getByLabel("Coupon code").fill("WRONG");
    await page.getByText("Invalid coupon code").waitFor();
    expect(await apply.isDisabled()).toBe(true);
    await page.getByLabel("Coupon code").fill("gift100");
    await page.getByText("100% off").first().waitFor();
    await toastText(page).getByText("Coupon Applied!").waitFor();
    expect(await page.getByTestId("order-total").innerText()).toBe("$0.00");
    await expectAccessible(page, "checkout with free coupon");
    await page.getByRole("button", { name: "Claim Free Course" }).click();
    await toastText(page).getByText("Enrollment Successful!").waitFor();
    await page.waitForURL("**/course/fixture-basics");
    await page.getByRole("link", { name: /Lesson alpha-two/ }).waitFor();
  });

  it("buys through the hosted checkout and lands on 'Payment Successful!'", async () => {
    const page = await e2e.newPage();
    await newLearner(page, "Hugo");
    await page.goto("/simple-checkout/fixture-other");
    await page.getByRole("heading", { name: "What you get" }).waitFor();
    await expectAccessible(page, "simple checkout");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Secure checkout").waitFor();
    await expectAccessible(page, "sandbox hosted checkout");
    await fillCard(page, "4242424242424242");
    await page.getByRole("button", { name: "Pay $20.00" }).click();
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
    // The page names what was bought and what it cost, with the receipt a click away.
    await page.getByRole("link", { name: "View your receipt" }).waitFor();
    expect(await page.getByTestId("success-summary").innerText()).toMatch(
      /^You are enrolled in Fixture Other: \$20\.00 paid\. View your receipt$/,
    );
    await page.getByRole("link", { name: "Start Learning Now" }).click();
    await page.getByTestId("in-progress-fixture-other").waitFor();

    await page.goto("/checkout/success");
    await page.getByRole("heading", { name: "Payment Issue" }).waitFor();

    // The one-button variant starts the same hosted checkout.
    await page.goto("/firebase-checkout/fixture-basics");
    await page
      .getByText("You will be redirected to a secure hosted checkout page to complete your purchase.")
      .waitFor();
    await expectAccessible(page, "hosted checkout button page");
    await page.getByRole("button", { name: "Buy Now - $20.00" }).click();
    await page.getByText("Secure checkout").waitFor();
    expect(page.url()).toContain("/sandbox-checkout/");
  });
});
