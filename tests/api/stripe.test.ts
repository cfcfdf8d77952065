import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "../setup/fake-stripe.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

const WEBHOOK_SECRET = "whsec_test_academy_secret";
let t: TestApp;
let fake: FakeStripe;
const stripe = new Stripe("sk_test_fake");

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const post = (user: TestUser | null, url: string, payload: unknown = {}) =>
  request(t.app, "POST", url, { cookie: user?.cookie, payload });
const enrolments = async (userId: string) =>
  Number(
    (
      await t.testDb.database.db
        .selectFrom("enrollment")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("userId", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const orders = async (userId: string) =>
  Number(
    (
      await t.testDb.database.db
        .selectFrom("order")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("userId", "=", userId)
        .where("status", "=", "paid")
        .executeTakeFirstOrThrow()
    ).n,
  );

function event(
  type: string,
  object: { id: string; object: string },
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2024-06-20",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
}
function sendWebhook(payload: string, signature?: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/stripe/webhook",
    headers: {
      "content-type": "application/json",
      ...(signature !== undefined ? { "stripe-signature": signature } : {}),
    },
    payload,
  });
}
const sign = (payload: string, timestamp?: number) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, ...(timestamp ? { timestamp } : {}) });

describe("Stripe provider (against a local fake of Stripe's API)", () => {
  it("creates a Payment Intent through the SDK with the server's price and an idempotency key", async () => {
    const user = await signUpUser(t.app);
    const res = (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    expect(res).toMatchObject({ provider: "stripe", publishableKey: "pk_test_fake", amount: 2000, isFree: false });
    const pi = fake.intents.get(res.paymentIntentId)!;
    expect(pi).toMatchObject({
      amount: 2000,
      currency: "usd",
      metadata: { userId: user.id, courseId: "fixture-basics", originalAmount: "2000" },
    });
    expect(fake.requests.find((r) => r.path === "/v1/payment_intents")?.idempotencyKey).toBeTruthy();
    expect((await request(t.app, "GET", "/api/payments/config")).json()).toEqual({
      enabled: true,
      provider: "stripe",
      publishableKey: "pk_test_fake",
      testPaymentsBanner: false,
    });
  });

  it("enrols on a signed webhook once, and a replayed event does nothing", async () => {
    const user = await signUpUser(t.app);
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    fake.setIntentStatus(paymentIntentId, "succeeded");
    const payload = event(
      "payment_intent.succeeded",
      { id: paymentIntentId, object: "payment_intent" },
      "evt_replay_1",
    );
    const first = await sendWebhook(payload, sign(payload));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const replay = await sendWebhook(payload, sign(payload));
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await enrolments(user.id)).toBe(1);
    expect(await orders(user.id)).toBe(1);
    // The learner's own confirm after the webhook changes nothing either.
    expect((await post(user, "/api/confirm-enrollment", { paymentIntentId })).statusCode).toBe(200);
    expect(await orders(user.id)).toBe(1);
  });

  it("handles events out of order by reading the payment's state back from Stripe", async () => {
    const user = await signUpUser(t.app);
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId: "fixture-other" })).json();
    fake.setIntentStatus(paymentIntentId, "processing");
    // 'succeeded' arrives while Stripe still says processing: nothing yet.
    const early = event("payment_intent.succeeded", { id: paymentIntentId, object: "payment_intent" });
    expect((await sendWebhook(early, sign(early))).statusCode).toBe(200);
    expect(await enrolments(user.id)).toBe(0);
    fake.setIntentStatus(paymentIntentId, "succeeded");
    // A stale 'processing' event arriving after the payment succeeded still leads to one enrolment.
    const late = event("payment_intent.processing", { id: paymentIntentId, object: "payment_intent" });
    expect((await sendWebhook(late, sign(late))).statusCode).toBe(200);
    expect(await enrolments(user.id)).toBe(1);
    const final = event("payment_intent.succeeded", { id: paymentIntentId, object: "payment_intent" });
    await sendWebhook(final, sign(final));
    expect(await orders(user.id)).toBe(1);
  });

  it("fulfils a paid Checkout Session from its webhook", async () => {
    const user = await signUpUser(t.app);
    const { sessionId, checkoutUrl } = (
      await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })
    ).json();
    expect(checkoutUrl).toContain(sessionId);
    const unpaid = event("checkout.session.completed", { id: sessionId, object: "checkout.session" });
    await sendWebhook(unpaid, sign(unpaid));
    expect(await enrolments(user.id)).toBe(0);
    fake.paySession(sessionId);
    const paid = event("checkout.session.completed", { id: sessionId, object: "checkout.session" });
    await sendWebhook(paid, sign(paid));
    expect(await enrolments(user.id)).toBe(1);
    expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: [], pending: [] });
  });

  it("refuses a missing, invalid or too old signature with 400", async () => {
    const payload = event("payment_intent.succeeded", { id: "pi_x", object: "payment_intent" });
    expect((await sendWebhook(payload)).statusCode).toBe(400);
    expect((await sendWebhook(payload, "t=1,v1=deadbeef")).statusCode).toBe(400);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" });
    expect((await sendWebhook(payload, forged)).statusCode).toBe(400);
    const old = sign(payload, Math.floor(Date.now() / 1000) - 3600);
    const res = await sendWebhook(payload, old);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/signature/i);
    const tampered = payload.replace("pi_x", "pi_y");
    expect((await sendWebhook(tampered, sign(payload))).statusCode).toBe(400);
  });

  it("refuses an event signed or created more than a minute ahead of the server's clock", async () => {
    const payload = event("payment_intent.succeeded", { id: "pi_future", object: "payment_intent" });
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const res = await sendWebhook(payload, sign(payload, inAnHour));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/future/);
    const created = JSON.stringify({ ...JSON.parse(payload), created: inAnHour });
    expect((await sendWebhook(created, sign(created))).statusCode).toBe(400);
    // A few seconds ahead is an ordinary clock difference.
    const ahead = await sendWebhook(payload, sign(payload, Math.floor(Date.now() / 1000) + 5));
    expect(ahead.statusCode).toBeLessThan(300);
  });

  it("does not enrol when the paid amount does not match the course price", async () => {
    const user = await signUpUser(t.app);
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    fake.setIntentStatus(paymentIntentId, "succeeded", { amount: 1 });
    const payload = event("payment_intent.succeeded", { id: paymentIntentId, object: "payment_intent" });
    await sendWebhook(payload, sign(payload));
    expect(await enrolments(user.id)).toBe(0);
    expect((await post(user, "/api/confirm-enrollment", { paymentIntentId })).statusCode).toBe(403);
  });
});
