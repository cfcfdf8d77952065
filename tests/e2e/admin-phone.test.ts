import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { recordAudit } from "#server/modules/audit/audit.ts";
import { insertCreatedOrder, ownershipKey } from "#server/modules/checkout/orders.repository.ts";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { giveCertificate } from "../setup/factories.ts";
import { cookieFrom } from "../setup/test-app.ts";
import { expectAccessible, toastText, useE2E } from "./harness.ts";
import { expectNoSideScrollAt200, setTextSize200 } from "./large-text.ts";

const e2e = useE2E();
const db = () => e2e.testDb.database.db;
const PHONE = { width: 390, height: 844 };

// Long addresses and ids: what a table cell must wrap instead of widening the page.
const longEmail = (name: string) => `${name}.withaveryratherlongaddressfortesting@wellnesscoachingschool.example`;
const LONG_PAYMENT_ID = "pi_3QxLongPaymentIdentifierWithoutAnySpaces0123456789abcdefABCDEF";

let accounts = 0;
/** Signs up and signs in through the real Better Auth routes; returns the id, e-mail and session cookie. */
async function account(email: string, firstName: string) {
  accounts++;
  const ask = (url: string, payload: object) =>
    e2e.app.inject({
      method: "POST",
      url,
      headers: { origin: e2e.baseUrl },
      remoteAddress: `198.51.100.${accounts}`,
      payload,
    });
  const password = "harbour-light-73";
  const up = await ask("/api/auth/sign-up/email", { email, password, name: firstName, firstName, lastName: "Learner" });
  if (up.statusCode !== 200) throw new Error(`sign-up: ${up.statusCode} ${up.body}`);
  const signIn = await ask("/api/auth/sign-in/email", { email, password });
  if (signIn.statusCode !== 200) throw new Error(`sign-in: ${signIn.statusCode} ${signIn.body}`);
  return { id: (signIn.json() as { user: { id: string } }).user.id, email, firstName, cookie: cookieFrom(signIn) };
}

/** An admin signed in through the real auth routes, in a browser page of the given size. */
async function adminPage(viewport = PHONE): Promise<Page> {
  const admin = await account(`admin-${accounts}-${Date.now()}@academy.example`, "Ada");
  await db().updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
  const page = await e2e.newPage({ viewport });
  await page.context().addCookies(
    admin.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: e2e.baseUrl };
    }),
  );
  return page;
}

let seeded = false;
/** Learners with a course, a certificate and an order, coupons of each kind, and audit rows with details. */
async function seed() {
  if (seeded) return;
  seeded = true;
  const spring = await createCoupon(db(), { code: "SPRINGTIME-WELLNESS-2026", amountOff: 500 });
  for (const name of ["maria", "jonathan"]) {
    const learner = await account(longEmail(name), name);
    await e2e.enrol(learner.email, "fixture-basics");
    await giveCertificate(db(), learner);
    const order = await insertCreatedOrder(db(), {
      userId: learner.id,
      courseId: "fixture-basics",
      kind: "intent",
      amount: 1500,
      originalAmount: 2000,
      coupon: { id: spring.id, code: spring.code },
      provider: "sandbox",
      providerPaymentId: `${LONG_PAYMENT_ID}${name}`,
    });
    const now = new Date().toISOString();
    await db()
      .updateTable("order")
      .set({ status: "paid", paidAt: now, ownershipKey: ownershipKey(learner.id, "fixture-basics") })
      .where("id", "=", order.id)
      .execute();
    await recordAudit(db(), { id: "system", email: "payments (automatic)" }, "order.refund", order.id, {
      reason: "requested by the learner",
      amount: 1500,
      courseId: "fixture-basics",
      userId: learner.id,
      refundId: `re_${LONG_PAYMENT_ID}`,
      accessEnded: true,
      certificatesRevoked: ["HWA-2026-ABCDEF"],
    });
  }
  await createCoupon(db(), { code: "LASTYEAR", percentOff: 10, expiresAt: "2020-01-31T23:59:59.000Z" });
  await createCoupon(db(), {
    code: "A-VERY-LONG-COUPON-CODE-FOR-THE-NEW-YEAR-2027",
    amountOff: 1250,
    courseId: "fixture-basics",
    maxRedemptions: 100,
  });
}

/** The form's alert says the message, and the field (not the others) is marked invalid, described by it and focused. */
async function expectErrorOn(form: Locator, message: string | RegExp, field: Locator, others: Locator[] = []) {
  const alert = form.getByRole("alert");
  await alert.getByText(message).waitFor();
  await expect
    .poll(() => field.evaluate((el) => el === document.activeElement), { message: "focus on the field" })
    .toBe(true);
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(await alert.getAttribute("id"));
  for (const other of others) expect(await other.getAttribute("aria-invalid")).toBeNull();
}

/** How far the page scrolls sideways: 0 when everything fits. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const PAGES = [
  ["/admin-enrollments", "Manual enrollment", null],
  ["/admin/coupons", "Coupons", "LASTYEAR"],
  ["/admin/orders", "Orders", "SPRINGTIME-WELLNESS-2026"],
  ["/admin/learners", "Learners", longEmail("maria")],
  ["/admin/item-statistics", "Item statistics", "not enough data"],
  ["/admin/audit", "Audit log", "order.refund"],
] as const;

describe("admin on a phone and at a desk", () => {
  it("no admin page scrolls sideways at 390 px, with data in every table", async () => {
    await seed();
    const page = await adminPage();
    for (const [path, heading, sample] of PAGES) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      if (sample) await page.getByText(sample).first().waitFor();
      expect(await sidewaysScroll(page), `sideways scrolling on ${path} at 390 px`).toBeLessThanOrEqual(0);
      await expectAccessible(page, `${path} at 390 px`);
    }
  });

  it("nor at 200% text size: every admin page fits a 390 px phone", async () => {
    await seed();
    const page = await adminPage();
    await setTextSize200(page);
    for (const [path, heading, sample] of PAGES) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      if (sample) await page.getByText(sample).first().waitFor();
      await expectNoSideScrollAt200(page, path);
    }
  });

  it("at 1280 px the lists are real tables with column headers", async () => {
    await seed();
    const page = await adminPage({ width: 1280, height: 900 });
    for (const [path, heading, sample] of PAGES) {
      if (!sample) continue;
      await page.goto(path);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      const table = page.getByRole("table", { name: heading });
      await table.getByText(sample).first().waitFor();
      const headers = table.getByRole("columnheader");
      expect(await headers.count(), `${path} column headers`).toBeGreaterThan(1);
      // A header row on screen (not only for screen readers), and each row's cells side by side.
      await headers.first().scrollIntoViewIfNeeded();
      const onScreen = await headers.first().evaluate((th) => {
        const box = th.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return !!hit && th.contains(hit);
      });
      expect(onScreen, `${path} header row on screen`).toBe(true);
      const cells = table.getByRole("row").nth(1).getByRole("cell");
      const [first, second] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
      expect(second?.y, `${path} cells side by side`).toBe(first?.y);
      expect(second?.x, `${path} cells side by side`).toBeGreaterThan(first?.x ?? 0);
      expect(await sidewaysScroll(page), `sideways scrolling on ${path} at 1280 px`).toBeLessThanOrEqual(0);
    }
  });

  it("audit details read as labelled values: dollars, dates, yes and no; never raw JSON", async () => {
    await seed();
    const page = await adminPage();
    await page.goto("/admin/coupons");
    await page.getByLabel("Code").fill("SUMMER25");
    await page.getByLabel("Discount type").selectOption("amount");
    await page.getByLabel("Dollars").fill("12.50");
    await page.getByLabel("Expires (optional)").fill("2030-06-30");
    await page.getByRole("button", { name: "Create Coupon" }).click();
    await toastText(page).getByText("Coupon Created").waitFor();

    await page.goto("/admin/audit");
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
    const refund = page.getByTestId("audit-details").filter({ hasText: "requested by the learner" }).first();
    const refundText = await refund.innerText();
    expect(refundText).toMatch(/Amount\s+\$15\.00/);
    expect(refundText).toMatch(/Access ended\s+Yes/);
    expect(refundText).toMatch(/Certificates revoked\s+HWA-2026-ABCDEF/);
    const coupon = page.getByTestId("audit-details").filter({ hasText: "SUMMER25" });
    const couponText = await coupon.innerText();
    expect(couponText).toMatch(/Dollars off\s+\$12\.50/);
    expect(couponText).toMatch(/Expires\s+June 30, 2030/);
    expect(await page.locator("main").innerText()).not.toContain('{"');
    // A long id wraps inside its card instead of running off it.
    const overflow = await refund.evaluate((el) =>
      [...el.querySelectorAll("dd")].some((dd) => dd.scrollWidth > dd.clientWidth + 1),
    );
    expect(overflow, "a detail value is clipped").toBe(false);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, "audit details at 390 px");
  });

  it("admin form errors show by the field: alert text, aria-invalid, focus", async () => {
    await seed();
    const page = await adminPage();
    await page.goto("/admin-enrollments");
    await page.getByRole("heading", { name: "Manual enrollment", level: 1 }).waitFor();
    const enrol = page.getByRole("form", { name: "Enroll a learner" });
    const email = page.getByLabel("User email");
    const course = page.getByLabel("Course");
    await enrol.getByRole("button", { name: "Enroll User" }).click();
    await expectErrorOn(enrol, "Please enter both email and select a course.", email);
    await expectAccessible(page, "enrol form with an error");

    // Only the course is missing: only the course is marked.
    await email.fill(longEmail("maria"));
    await enrol.getByRole("button", { name: "Enroll User" }).click();
    await expectErrorOn(enrol, "Please enter both email and select a course.", course, [email]);

    // The server's refusal lands by the form too, on the e-mail.
    await course.selectOption("fixture-basics");
    await enrol.getByRole("button", { name: "Enroll User" }).click();
    await expectErrorOn(enrol, /already enrolled/, email, [course]);

    // Bulk enrolment with nothing pasted says so by the text box.
    const bulk = page.getByRole("form", { name: "Bulk enrollment" });
    await bulk.getByRole("button", { name: "Enroll All" }).click();
    await expectErrorOn(bulk, "Paste or upload at least one row.", page.getByLabel("CSV rows"));

    // Coupons: a bad code, a bad percent, then a code already taken.
    await page.goto("/admin/coupons");
    const form = page.getByRole("form", { name: "New coupon" });
    const code = page.getByLabel("Code");
    const percent = page.getByLabel("Percent (1-100)");
    const create = form.getByRole("button", { name: "Create Coupon" });
    await code.fill("no");
    await percent.fill("10");
    await create.click();
    await expectErrorOn(form, "Codes are 3-64 letters, digits, '-' or '_'.", code, [percent]);
    await code.fill("TAKEN10");
    await create.click();
    await toastText(page).getByText("Coupon Created").waitFor();
    await code.fill("TAKEN10");
    await percent.fill("150");
    await create.click();
    await expectErrorOn(form, "Give a percent from 1 to 100.", percent, [code]);
    await percent.fill("10");
    await create.click();
    await expectErrorOn(form, "A coupon with the code TAKEN10 already exists.", code, [percent]);
    await expectAccessible(page, "coupon form with an error");
    // Dollars off is checked in dollars, and a maximum of no uses is refused by its own field.
    await code.fill("DOLLARS5");
    await page.getByLabel("Discount type").selectOption("amount");
    const dollars = page.getByLabel("Dollars");
    await dollars.fill("0.001");
    await create.click();
    await expectErrorOn(form, "Give an amount in dollars from 0.01 to 10,000, e.g. 12.50.", dollars, [code]);
    const maxUses = page.getByLabel("Maximum uses (optional)");
    await dollars.fill("5");
    await maxUses.fill("0");
    await create.click();
    await expectErrorOn(form, "Maximum uses is a whole number from 1.", maxUses, [dollars, code]);

    // A learner's exam time out of range.
    await page.goto("/admin/learners");
    await page.getByLabel("Search by name or e-mail").fill(longEmail("maria"));
    const multiplier = page.getByLabel("Exam time multiplier");
    await expect.poll(() => multiplier.count()).toBe(1);
    await multiplier.fill("9");
    await page.getByRole("button", { name: `Save exam time multiplier for ${longEmail("maria")}` }).click();
    await expectErrorOn(
      page.locator("form").filter({ has: multiplier }),
      "Give a multiplier from 1 to 4, e.g. 1.5.",
      multiplier,
    );
  });

  it("the bulk enrolment result is readable on a phone: each row's e-mail, course and result, unclipped", async () => {
    await seed();
    const page = await adminPage();
    await page.goto("/admin-enrollments");
    await page.getByRole("heading", { name: "Manual enrollment", level: 1 }).waitFor();
    const csv = [
      `${longEmail("maria")},fixture-basics`,
      `${longEmail("newcomer")},fixture-basics`,
      "not-an-email,fixture-basics",
      `${longEmail("maria")},no-such-course`,
    ].join("\n");
    await page.getByLabel("CSV rows").fill(csv);
    await page.getByRole("button", { name: "Enroll All" }).click();
    await toastText(page).getByText("Bulk Enrollment Done").waitFor();
    const results = page.getByRole("table", { name: "Bulk enrollment results" });
    const row = (line: number) => results.getByTestId(`bulk-row-${line}`);
    await row(1).waitFor();
    expect(await row(1).innerText()).toContain("Already enrolled");
    expect(await row(2).innerText()).toContain(longEmail("newcomer"));
    expect(await row(2).innerText()).toContain("Pending (no account yet)");
    expect(await row(3).innerText()).toContain("Invalid e-mail");
    expect(await row(4).innerText()).toContain("Unknown course");
    const clipped = await results.evaluate((table) =>
      [...table.querySelectorAll("td")].some((td) => td.scrollWidth > td.clientWidth + 1),
    );
    expect(clipped, "a result cell is clipped").toBe(false);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, "bulk result at 390 px");
  });
});
