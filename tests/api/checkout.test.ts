import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: "123" });
const post = (user: TestUser | null, url: string, payload: unknown = {}) =>
  request(t.app, "POST", url, { cookie: user?.cookie, payload });
const db = () => t.testDb.database.db;
const count = async (table: "order" | "enrollment" | "couponRedemption", userId?: string) => {
  let q = db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"));
  if (userId) q = q.where("userId", "=", userId);
  // Orders count once paid: a 'created' order is only the quote of a payment not made.
  if (table === "order") q = q.where(sql.ref("status"), "!=", "created");
  return Number((await q.executeTakeFirstOrThrow()).n);
};

async function payWith(user: TestUser, number: string, courseId = "fixture-basics") {
  const intent = (await post(user, "/api/create-payment-intent", { courseId })).json();
  const confirm = (
    await post(user, `/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
      clientSecret: intent.clientSecret,
      card: card(number),
    })
  ).json();
  return { intent, confirm };
}

describe("payment intents", () => {
  it("needs a signed-in learner", async () => {
    expect((await post(null, "/api/create-payment-intent", { courseId: "fixture-basics" })).statusCode).toBe(401);
    expect((await post(null, "/api/validate-coupon", { couponCode: "X" })).statusCode).toBe(401);
    expect((await post(null, "/api/confirm-enrollment", { paymentIntentId: "pi_x" })).statusCode).toBe(401);
    expect((await post(null, "/api/auto-enroll-all")).statusCode).toBe(401);
  });

  it("takes the price from the database and ignores an amount sent by the client", async () => {
    const user = await signUpUser(t.app);
    const tampered = await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", amount: 1 });
    expect(tampered.statusCode).toBe(400);
    const res = (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    expect(res).toMatchObject({
      provider: "sandbox",
      amount: 2000,
      originalAmount: 2000,
      currency: "usd",
      isFree: false,
      freeEnrollment: false,
    });
    expect(res.clientSecret).toBeTruthy();
    // The same request again reuses the intent rather than making a second one.
    expect(
      (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json().paymentIntentId,
    ).toBe(res.paymentIntentId);
  });

  it("enrols after a 4242 payment verified on the server, and refuses a second purchase with 409", async () => {
    const user = await signUpUser(t.app);
    const { intent, confirm } = await payWith(user, SANDBOX_CARDS.success);
    expect(confirm).toEqual({ status: "succeeded", error: null });
    const res = await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      courseId: "fixture-basics",
      message: "Welcome to Fixture Basics! You can now access all course materials.",
    });
    expect(
      (await request(t.app, "GET", "/api/courses/fixture-basics/lessons/alpha-two", { cookie: user.cookie }))
        .statusCode,
    ).toBe(200);
    const order = await db()
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", user.id)
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      amount: 2000,
      originalAmount: 2000,
      provider: "sandbox",
      status: "paid",
      providerPaymentId: intent.paymentIntentId,
    });
    const again = await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("You are already enrolled in this course");
  });

  it("declines 0002 and 9995 with Stripe's messages and enrols nobody", async () => {
    const user = await signUpUser(t.app);
    const declined = await payWith(user, SANDBOX_CARDS.declined);
    expect(declined.confirm).toEqual({ status: "requires_payment_method", error: "Your card was declined." });
    const confirm = await post(user, "/api/confirm-enrollment", { paymentIntentId: declined.intent.paymentIntentId });
    expect(confirm.statusCode).toBe(402);
    expect(confirm.json().message).toMatch(/requires_payment_method/);
    const other = await signUpUser(t.app);
    expect((await payWith(other, SANDBOX_CARDS.insufficientFunds)).confirm.error).toBe(
      "Your card has insufficient funds.",
    );
    expect(await count("enrollment", user.id)).toBe(0);
    expect(await count("order", user.id)).toBe(0);
  });

  it("leaves the processing card in 'processing', then settles it through the same fulfilment", async () => {
    const user = await signUpUser(t.app);
    const { intent, confirm } = await payWith(user, SANDBOX_CARDS.processing);
    expect(confirm.status).toBe("processing");
    const early = await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId });
    expect(early.statusCode).toBe(402);
    expect(early.json().message).toBe("Your payment is being processed.");
    await expect.poll(async () => count("enrollment", user.id), { timeout: 10_000, interval: 250 }).toBe(1);
    expect(await count("order", user.id)).toBe(1);
  });

  it("gives one enrolment and one order to parallel confirms", async () => {
    const user = await signUpUser(t.app);
    const { intent } = await payWith(user, SANDBOX_CARDS.success);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await count("enrollment", user.id)).toBe(1);
    expect(await count("order", user.id)).toBe(1);
  });

  it("never lets another learner confirm your payment", async () => {
    const owner = await signUpUser(t.app);
    const { intent } = await payWith(owner, SANDBOX_CARDS.success);
    const thief = await signUpUser(t.app);
    expect((await post(thief, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId })).statusCode).toBe(
      404,
    );
    expect(
      (
        await post(thief, `/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
          clientSecret: intent.clientSecret,
          card: card(SANDBOX_CARDS.success),
        })
      ).statusCode,
    ).toBe(404);
    expect(await count("enrollment", thief.id)).toBe(0);
  });

  it("never stores a card number", async () => {
    const user = await signUpUser(t.app);
    await payWith(user, SANDBOX_CARDS.success, "fixture-other");
    const rows = await db().selectFrom("sandboxPayment").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(SANDBOX_CARDS.success);
    expect(rows.some((r) => r.cardLast4 === "4242")).toBe(true);
  });
});

describe("coupons", () => {
  beforeAll(async () => {
    await createCoupon(db(), { code: "save20", percentOff: 20 });
    await createCoupon(db(), { code: "FIVEOFF", amountOff: 500 });
    await createCoupon(db(), { code: "OLD", percentOff: 10, expiresAt: "2020-01-01T00:00:00Z" });
    await createCoupon(db(), { code: "GONE", percentOff: 10, maxRedemptions: 0 });
    await createCoupon(db(), { code: "OTHERONLY", percentOff: 10, courseId: "fixture-other" });
    await createCoupon(db(), { code: "FREEBIE", percentOff: 100 });
    await createCoupon(db(), { code: "LASTSLOT", percentOff: 100, maxRedemptions: 2 });
  });

  it("validates case-insensitively and answers each rule with its message", async () => {
    const user = await signUpUser(t.app);
    const ok = await post(user, "/api/validate-coupon", { couponCode: "Save20", courseId: "fixture-basics" });
    expect(ok.json()).toEqual({ valid: true, coupon: { code: "SAVE20", percentOff: 20, amountOff: null } });
    const cases: [string, string][] = [
      ["NOPE", "Invalid coupon code"],
      ["old", "This coupon has expired"],
      ["GONE", "This coupon has reached its redemption limit"],
      ["otheronly", "This coupon does not apply to this course"],
    ];
    for (const [code, message] of cases) {
      const res = await post(user, "/api/validate-coupon", { couponCode: code, courseId: "fixture-basics" });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    await db().updateTable("coupon").set({ active: false }).where("code", "=", "FIVEOFF").execute();
    expect((await post(user, "/api/validate-coupon", { couponCode: "fiveoff" })).json().message).toBe(
      "Invalid coupon code",
    );
    await db().updateTable("coupon").set({ active: true }).where("code", "=", "FIVEOFF").execute();
  });

  it("discounts the intent, records the redemption with the order, and takes one coupon per order", async () => {
    const user = await signUpUser(t.app);
    const pct = (
      await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "save20" })
    ).json();
    expect(pct).toMatchObject({ amount: 1600, originalAmount: 2000, coupon: { code: "SAVE20", percentOff: 20 } });
    const amt = (
      await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "FIVEOFF" })
    ).json();
    expect(amt).toMatchObject({ amount: 1500, originalAmount: 2000 });
    expect(
      (
        await post(user, "/api/create-payment-intent", {
          courseId: "fixture-basics",
          couponCode: ["SAVE20", "FIVEOFF"],
        })
      ).statusCode,
    ).toBe(400);

    await post(user, `/api/sandbox/payment-intents/${pct.paymentIntentId}/confirm`, {
      clientSecret: pct.clientSecret,
      card: card(SANDBOX_CARDS.success),
    });
    expect((await post(user, "/api/confirm-enrollment", { paymentIntentId: pct.paymentIntentId })).statusCode).toBe(
      200,
    );
    const order = await db()
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", user.id)
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ amount: 1600, couponCode: "SAVE20" });
    expect(await count("couponRedemption", user.id)).toBe(1);
  });

  it("offers a free claim for a 100% coupon, remembering the coupon from the learner's latest quote", async () => {
    const user = await signUpUser(t.app);
    // No free quote yet: nothing to claim.
    expect(
      (await post(user, "/api/confirm-enrollment", { paymentIntentId: "free-coupon", courseId: "fixture-basics" }))
        .statusCode,
    ).toBe(400);
    const intent = (
      await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "freebie" })
    ).json();
    expect(intent).toMatchObject({ amount: 0, isFree: true, freeEnrollment: true, clientSecret: null });
    expect(
      (
        await post(user, "/api/confirm-enrollment", {
          paymentIntentId: "free-coupon",
          courseId: "fixture-basics",
          couponCode: "SAVE20",
        })
      ).statusCode,
    ).toBe(400);
    // The spec's client sends no coupon code: the server remembers it from create-payment-intent.
    const res = await post(user, "/api/confirm-enrollment", {
      paymentIntentId: "free-coupon",
      courseId: "fixture-basics",
    });
    expect(res.statusCode).toBe(200);
    expect(await count("enrollment", user.id)).toBe(1);
    const order = await db()
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", user.id)
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ amount: 0, couponCode: "FREEBIE", kind: "free" });
  });

  it("refuses a free claim when the latest quote is not free", async () => {
    const user = await signUpUser(t.app);
    await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "freebie" });
    await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" });
    const res = await post(user, "/api/confirm-enrollment", {
      paymentIntentId: "free-coupon",
      courseId: "fixture-basics",
    });
    expect(res.statusCode).toBe(400);
    expect(await count("enrollment", user.id)).toBe(0);
  });

  it("gives exactly the maximum when learners claim the last slots in parallel", async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => signUpUser(t.app)));
    const results = await Promise.all(
      users.map((u) =>
        post(u, "/api/confirm-enrollment", {
          paymentIntentId: "free-coupon",
          courseId: "fixture-other",
          couponCode: "LASTSLOT",
        }),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(2);
    for (const r of results.filter((r) => r.statusCode !== 200))
      expect(r.json().message).toBe("This coupon has reached its redemption limit");
    const coupon = await db().selectFrom("coupon").selectAll().where("code", "=", "LASTSLOT").executeTakeFirstOrThrow();
    expect(coupon.redemptionCount).toBe(2);
    expect(await count("couponRedemption")).toBeGreaterThanOrEqual(2);
    const enrolled = await db()
      .selectFrom("enrollment")
      .select("userId")
      .where("courseId", "=", "fixture-other")
      .where("source", "=", "coupon")
      .execute();
    expect(enrolled).toHaveLength(2);
  });
});

describe("hosted checkout", () => {
  it("creates a session, and the success page's auto-enroll enrols only after it is paid", async () => {
    const user = await signUpUser(t.app);
    const created = (await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).json();
    expect(created.checkoutUrl).toBe(`${t.config.appUrl}/sandbox-checkout/${created.sessionId}`);

    // Arriving at the success page without paying enrols nobody.
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: [], pending: ["fixture-basics"] });
    expect(await count("enrollment", user.id)).toBe(0);

    const declined = (
      await post(user, `/api/sandbox/checkout-sessions/${created.sessionId}/pay`, {
        card: card(SANDBOX_CARDS.declined),
      })
    ).json();
    expect(declined).toEqual({ redirectUrl: null, error: "Your card was declined." });
    const paid = (
      await post(user, `/api/sandbox/checkout-sessions/${created.sessionId}/pay`, { card: card(SANDBOX_CARDS.success) })
    ).json();
    expect(paid.redirectUrl).toBe(`/checkout/success?session_id=${created.sessionId}&course_id=fixture-basics`);
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: ["fixture-basics"], pending: [] });
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: [], pending: [] });
    expect(await count("enrollment", user.id)).toBe(1);
    expect(await count("order", user.id)).toBe(1);
  });

  it("a hosted session paid with the processing card completes unpaid, then settles and enrols once", async () => {
    const user = await signUpUser(t.app);
    const created = (await post(user, "/api/create-checkout-session", { courseId: "fixture-other" })).json();
    const paid = (
      await post(user, `/api/sandbox/checkout-sessions/${created.sessionId}/pay`, {
        card: card(SANDBOX_CARDS.processing),
      })
    ).json();
    expect(paid).toEqual({
      redirectUrl: `/checkout/success?session_id=${created.sessionId}&course_id=fixture-other`,
      error: null,
    });
    // Not yet: the success page is told the payment is still pending, and nobody is enrolled.
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: [], pending: ["fixture-other"] });
    expect(await count("enrollment", user.id)).toBe(0);
    // Paying again cannot start a second payment.
    await post(user, `/api/sandbox/checkout-sessions/${created.sessionId}/pay`, { card: card(SANDBOX_CARDS.success) });
    await expect.poll(async () => count("enrollment", user.id), { timeout: 10_000, interval: 250 }).toBe(1);
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: [], pending: [] });
    const orders = await db().selectFrom("order").select(["status", "amount"]).where("userId", "=", user.id).execute();
    expect(orders).toEqual([{ status: "paid", amount: 2000 }]);
  });

  it("does not let another learner see or pay your session", async () => {
    const owner = await signUpUser(t.app);
    const created = (await post(owner, "/api/create-checkout-session", { courseId: "fixture-other" })).json();
    const other = await signUpUser(t.app);
    expect(
      (await request(t.app, "GET", `/api/sandbox/checkout-sessions/${created.sessionId}`, { cookie: other.cookie }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await post(other, `/api/sandbox/checkout-sessions/${created.sessionId}/pay`, {
          card: card(SANDBOX_CARDS.success),
        })
      ).statusCode,
    ).toBe(404);
  });
});
