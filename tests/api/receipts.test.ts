import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { deliverQueuedMail, sendOutbox } from "../setup/outbox.ts";
import { buyInSandbox, createTestApp, request, signUpUser, type TestUser, verifyEmail } from "../setup/test-app.ts";

const t = await createTestApp({ env: { ADMIN_EMAILS: "receipts-admin@academy.example" } });
let admin: TestUser;
beforeAll(async () => {
  admin = await signUpUser(t.app, { email: "receipts-admin@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

const db = () => t.testDb.database.db;
const as = (user: TestUser | null, method: "GET" | "POST", url: string, payload?: unknown) =>
  request(t.app, method, url, { cookie: user?.cookie, payload: method === "POST" ? (payload ?? {}) : undefined });
/** Every receipt e-mail in the outbox addressed to this learner, as decoded text. */
const receiptsTo = (email: string) =>
  readdirSync(t.config.mailOutboxDir)
    .map((f) => readFileSync(join(t.config.mailOutboxDir, f), "utf8"))
    .filter((m) => m.includes(`To: ${email}`) && /Subject: (Refund receipt|Receipt)/.test(m))
    .map((m) =>
      m.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16))),
    );

describe("receipts", () => {
  it("mails one receipt per payment, however many senders run at once, and lists it under Purchases", async () => {
    const learner = await signUpUser(t.app);
    await buyInSandbox(t, learner, "fixture-basics");
    // A second confirmation of the same payment changes nothing.
    await Promise.all([sendOutbox(t.app), sendOutbox(t.app), sendOutbox(t.app)]);
    await deliverQueuedMail(t.app);
    const mails = receiptsTo(learner.email);
    expect(mails).toHaveLength(1);

    const purchases = (await as(learner, "GET", "/api/purchases")).json();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      courseId: "fixture-basics",
      courseTitle: "Fixture Basics",
      amount: 2000,
      status: "paid",
      kind: "card",
      couponCode: null,
    });
    const mail = mails[0];
    for (const part of [purchases[0].orderId, "Fixture Basics", "$20.00", "Coupon: none", t.config.supportEmail])
      expect(mail).toContain(part);
    expect(mail).toContain(`/purchases/${purchases[0].orderId}`);

    // Only its owner sees it.
    const other = await signUpUser(t.app);
    expect((await as(other, "GET", `/api/purchases/${purchases[0].orderId}`)).statusCode).toBe(404);
    expect((await as(other, "GET", "/api/purchases")).json()).toEqual([]);
    expect((await as(null, "GET", "/api/purchases")).statusCode).toBe(401);
    expect((await as(learner, "GET", `/api/purchases/${purchases[0].orderId}`)).json()).toEqual(purchases[0]);
  });

  it("mails a receipt for a free claim (with its coupon) and for a refund", async () => {
    await createCoupon(db(), { code: "RECEIPTFREE", percentOff: 100 });
    const learner = await signUpUser(t.app);
    await buyInSandbox(t, learner, "fixture-other", "RECEIPTFREE");
    await buyInSandbox(t, learner, "fixture-basics");
    await expect.poll(() => receiptsTo(learner.email).length).toBe(2);
    const mails = receiptsTo(learner.email);
    const free = mails.find((m) => m.includes("Fixture Other"));
    expect(free).toContain("Coupon: RECEIPTFREE");
    expect(free).toContain("$0.00");

    const paid = (await as(learner, "GET", "/api/purchases"))
      .json()
      .find((p: { courseId: string }) => p.courseId === "fixture-basics");
    expect((await as(admin, "POST", `/api/admin/orders/${paid.orderId}/refund`)).statusCode).toBe(200);
    const refunds = () => receiptsTo(learner.email).filter((m) => m.includes("Subject: Refund receipt"));
    await expect.poll(() => refunds().length).toBe(1);
    const refund = refunds();
    expect(refund[0]).toContain(paid.orderId);
    expect(refund[0]).toContain("$20.00");
    const after = (await as(learner, "GET", `/api/purchases/${paid.orderId}`)).json();
    expect(after.status).toBe("refunded");
    expect(after.refundedAt).not.toBeNull();
  });
});
