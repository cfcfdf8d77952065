import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { openDatabase } from "#server/db/database.ts";
import { reconcilePayments } from "#server/modules/checkout/reconciliation.ts";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { completeCourse } from "../setup/assessments.ts";
import { giveCertificate as giveCertificateTo } from "../setup/factories.ts";
import { type FakeStripe, startFakeStripe } from "../setup/fake-stripe.ts";
import { nth } from "../setup/must.ts";
import { createTestApp, request, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";

const card = (number: string = SANDBOX_CARDS.success) => ({
  number,
  expMonth: 12,
  expYear: new Date().getFullYear() + 3,
  cvc: "123",
});

function helpers(get: () => TestApp) {
  const db = () => get().testDb.database.db;
  const post = (user: TestUser | null, url: string, payload?: unknown, app = get().app) =>
    request(app, "POST", url, { cookie: user?.cookie, payload });
  const orders = (userId: string) =>
    db().selectFrom("order").selectAll().where("userId", "=", userId).where("status", "!=", "created").execute();
  const enrolled = async (user: TestUser, courseId = "fixture-basics") =>
    (await request(get().app, "GET", `/api/enrollments/${courseId}`, { cookie: user.cookie })).json().enrolled;
  const lessonStatus = async (user: TestUser) =>
    (await request(get().app, "GET", "/api/courses/fixture-basics/lessons/alpha-two", { cookie: user.cookie }))
      .statusCode;
  const makeAdmin = async (user: TestUser) => {
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", user.id).execute();
    return user;
  };
  const giveCertificate = (user: TestUser, courseId = "fixture-basics") => giveCertificateTo(db(), user, courseId);
  const paidOrderOf = async (userId: string) =>
    db()
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", userId)
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
  return { db, post, orders, enrolled, lessonStatus, makeAdmin, giveCertificate, paidOrderOf };
}

describe("money on the sandbox provider", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());
  const { db, post, orders, enrolled, lessonStatus, makeAdmin, giveCertificate, paidOrderOf } = helpers(() => t);

  async function startIntent(user: TestUser, courseId = "fixture-basics") {
    return (await post(user, "/api/create-payment-intent", { courseId })).json();
  }
  async function payIntent(user: TestUser, intent: { paymentIntentId: string; clientSecret: string }) {
    return post(user, `/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
      clientSecret: intent.clientSecret,
      card: card(),
    });
  }
  async function buy(user: TestUser, courseId = "fixture-basics") {
    const intent = await startIntent(user, courseId);
    expect((await payIntent(user, intent)).json().status).toBe("succeeded");
    const confirm = await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId });
    expect(confirm.statusCode).toBe(200);
    return intent.paymentIntentId as string;
  }

  describe("one paid order per learner and course", () => {
    it("an intent and two hosted sessions all paid: one paid order, the other two refunded with audit rows", async () => {
      const user = await signUpUser(t.app);
      const s1 = (await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).json();
      const s2 = (await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).json();
      const intent = await startIntent(user);
      for (const s of [s1, s2]) {
        const paid = await post(user, `/api/sandbox/checkout-sessions/${s.sessionId}/pay`, { card: card() });
        expect(paid.json().error).toBeNull();
      }
      expect((await payIntent(user, intent)).json().status).toBe("succeeded");

      expect((await post(user, "/api/auto-enroll-all")).json().enrolled).toEqual(["fixture-basics"]);
      const second = await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe("You already own this course, so this second payment was refunded.");

      const all = await orders(user.id);
      expect(all.map((o) => o.status).sort()).toEqual(["paid", "refunded", "refunded"]);
      expect(all.filter((o) => o.status === "refunded").every((o) => o.refundReason === "duplicate")).toBe(true);
      expect(await enrolled(user)).toBe(true);
      // The provider refunded both extra payments, and the audit log says so.
      const refundedAtProvider = await db()
        .selectFrom("sandboxPayment")
        .select("id")
        .where("kind", "=", "intent")
        .where("refundId", "is not", null)
        .where("metadata", "like", `%${user.id}%`)
        .execute();
      expect(refundedAtProvider).toHaveLength(2);
      const audit = await db()
        .selectFrom("auditLog")
        .selectAll()
        .where("action", "=", "order.refund-automatic")
        .where(
          "target",
          "in",
          all.filter((o) => o.status === "refunded").map((o) => o.id),
        )
        .execute();
      expect(audit).toHaveLength(2);
    });

    it("refuses to start a payment for a course the learner owns, on every way to pay", async () => {
      const user = await signUpUser(t.app);
      const early = await startIntent(user);
      const session = (await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).json();
      await buy(user);
      expect((await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).statusCode).toBe(409);
      expect((await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).statusCode).toBe(409);
      const secondTab = await post(user, `/api/sandbox/payment-intents/${early.paymentIntentId}/confirm`, {
        clientSecret: early.clientSecret,
        card: card(),
      });
      // `early` is the same intent `buy` reused; a fresh one from before is refused too.
      expect([200, 409]).toContain(secondTab.statusCode);
      const pay = await post(user, `/api/sandbox/checkout-sessions/${session.sessionId}/pay`, { card: card() });
      expect(pay.statusCode).toBe(409);
      expect(pay.json().message).toBe("You are already enrolled in this course");
      expect((await orders(user.id)).filter((o) => o.status === "paid")).toHaveLength(1);
    });

    it("parallel payments end with one paid order and the rest refunded", async () => {
      const user = await signUpUser(t.app);
      const sessions = [];
      for (let i = 0; i < 4; i++)
        sessions.push((await post(user, "/api/create-checkout-session", { courseId: "fixture-other" })).json());
      for (const s of sessions)
        expect(
          (await post(user, `/api/sandbox/checkout-sessions/${s.sessionId}/pay`, { card: card() })).statusCode,
        ).toBe(200);
      await Promise.all(sessions.map(() => post(user, "/api/auto-enroll-all")));
      const all = await orders(user.id);
      expect(all.filter((o) => o.status === "paid")).toHaveLength(1);
      expect(all.filter((o) => o.status === "refunded")).toHaveLength(3);
      expect(await enrolled(user, "fixture-other")).toBe(true);
    });
  });

  describe("refunds", () => {
    it("an admin refund ends the enrolment and revokes the certificate (reason refunded), once", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      await buy(user);
      const certificateId = await giveCertificate(user);
      expect(await lessonStatus(user)).toBe(200);
      const order = await paidOrderOf(user.id);

      const res = await post(admin, `/api/admin/orders/${order.id}/refund`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: "refunded" });
      expect(await enrolled(user)).toBe(false);
      expect(await lessonStatus(user)).toBe(403);
      const verify = (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();
      expect(verify).toMatchObject({ status: "revoked", revokedReason: "refunded" });
      const again = await post(admin, `/api/admin/orders/${order.id}/refund`, {});
      expect(again.statusCode).toBe(409);
      const audit = await db()
        .selectFrom("auditLog")
        .selectAll()
        .where("action", "=", "order.refund")
        .where("target", "=", order.id)
        .execute();
      expect(audit).toHaveLength(1);
    });

    it("parallel refund requests for one order: exactly one goes through", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      await buy(user, "fixture-other");
      const order = await paidOrderOf(user.id);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => post(admin, `/api/admin/orders/${order.id}/refund`)),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
    });

    it("buying again after a refund makes a new payment, a new paid order and a new enrolment", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      const first = await buy(user);
      await post(admin, `/api/admin/orders/${(await paidOrderOf(user.id)).id}/refund`);
      expect(await enrolled(user)).toBe(false);
      const second = await buy(user);
      expect(second).not.toBe(first);
      expect(await enrolled(user)).toBe(true);
      expect(await lessonStatus(user)).toBe(200);
      expect((await orders(user.id)).map((o) => o.status).sort()).toEqual(["paid", "refunded"]);

      // And through a hosted session too.
      await post(admin, `/api/admin/orders/${(await paidOrderOf(user.id)).id}/refund`);
      const session = (await post(user, "/api/create-checkout-session", { courseId: "fixture-basics" })).json();
      await post(user, `/api/sandbox/checkout-sessions/${session.sessionId}/pay`, { card: card() });
      expect((await post(user, "/api/auto-enroll-all")).json().enrolled).toEqual(["fixture-basics"]);
      expect(await enrolled(user)).toBe(true);
    });
  });

  describe("certificates after a refund", () => {
    const issue = (user: TestUser) => post(user, "/api/certificate", { courseId: "fixture-basics" });
    const verify = async (certificateId: string) =>
      (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();

    it("buying again and completing again earns a new certificate, once, while the refunded one stays revoked", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      await buy(user);
      await completeCourse(t.app, user.cookie, "fixture-basics");
      const first = (await issue(user)).json();
      expect(first.status).toBe("valid");

      await post(admin, `/api/admin/orders/${(await paidOrderOf(user.id)).id}/refund`);
      expect(await verify(first.certificateId)).toMatchObject({ status: "revoked", revokedReason: "refunded" });
      expect((await issue(user)).statusCode).toBe(403);

      await buy(user);
      await completeCourse(t.app, user.cookie, "fixture-basics");
      const results = await Promise.all(Array.from({ length: 6 }, () => issue(user)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
      const ids = new Set(results.map((r) => r.json().certificateId));
      expect(ids.size).toBe(1);
      const [second] = [...ids];
      expect(second).not.toBe(first.certificateId);
      expect(nth(results, 0).json().status).toBe("valid");
      expect(await verify(second)).toMatchObject({ status: "valid" });
      expect(await verify(first.certificateId)).toMatchObject({ status: "revoked", revokedReason: "refunded" });

      // The certificate page and My certificates show the new one.
      const page = (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: user.cookie })).json();
      expect(page).toMatchObject({ certificateId: second, status: "valid" });
      const mine = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json();
      expect(mine.filter((c: { courseId: string }) => c.courseId === "fixture-basics")).toMatchObject([
        { certificateId: second, status: "valid" },
      ]);
      expect((await issue(user)).json().certificateId).toBe(second);
    });

    it("a certificate an admin revoked is not replaced by asking again", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      await buy(user);
      await completeCourse(t.app, user.cookie, "fixture-basics");
      const first = (await issue(user)).json();
      const revoke = await post(admin, `/api/admin/certificates/${first.certificateId}/revoke`, {
        reason: "Exam taken by someone else",
      });
      expect(revoke.statusCode).toBe(200);

      const results = await Promise.all(Array.from({ length: 3 }, () => issue(user)));
      for (const res of results)
        expect(res.json()).toMatchObject({ certificateId: first.certificateId, status: "revoked" });
      const page = (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: user.cookie })).json();
      expect(page).toMatchObject({ certificateId: first.certificateId, status: "revoked" });
    });
  });

  describe("coupon limits at payment time", () => {
    it("a max-1 coupon is redeemed once, even when five learners started paying before anyone finished", async () => {
      await createCoupon(db(), { code: "ONLYONE", percentOff: 50, maxRedemptions: 1 });
      const users = await Promise.all(Array.from({ length: 5 }, () => signUpUser(t.app)));
      const intents: { paymentIntentId: string; clientSecret: string }[] = [];
      for (const user of users) {
        const intent = (
          await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "onlyone" })
        ).json();
        expect(intent.amount).toBe(1000);
        expect((await payIntent(user, intent)).json().status).toBe("succeeded");
        intents.push(intent);
      }
      const results = await Promise.all(
        users.map((user, i) =>
          post(user, "/api/confirm-enrollment", { paymentIntentId: nth(intents, i).paymentIntentId }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.statusCode !== 200)) {
        expect(r.statusCode).toBe(409);
        expect(r.json().message).toBe(
          "The coupon no longer applied when the payment arrived, so the payment was refunded.",
        );
      }
      const coupon = await db()
        .selectFrom("coupon")
        .selectAll()
        .where("code", "=", "ONLYONE")
        .executeTakeFirstOrThrow();
      expect(coupon.redemptionCount).toBe(1);
      const settled = await db()
        .selectFrom("order")
        .select(["status", "refundReason"])
        .where("couponId", "=", coupon.id)
        .where("status", "!=", "created")
        .execute();
      expect(settled.filter((o) => o.status === "paid")).toHaveLength(1);
      expect(settled.filter((o) => o.status === "refunded" && o.refundReason === "coupon")).toHaveLength(4);
      // A sixth learner is now told at once, before paying anything.
      const late = await signUpUser(t.app);
      const refused = await post(late, "/api/create-payment-intent", {
        courseId: "fixture-basics",
        couponCode: "ONLYONE",
      });
      expect(refused.json().message).toBe("This coupon has reached its redemption limit");
    });

    it("paid and free orders share the limit", async () => {
      await createCoupon(db(), { code: "TWOFREE", percentOff: 100, maxRedemptions: 2 });
      await createCoupon(db(), { code: "TWOHALF", percentOff: 50, maxRedemptions: 2 });
      const coupon = await db()
        .selectFrom("coupon")
        .selectAll()
        .where("code", "=", "TWOFREE")
        .executeTakeFirstOrThrow();
      const users = await Promise.all(Array.from({ length: 4 }, () => signUpUser(t.app)));
      for (const user of users)
        await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "TWOFREE" });
      const claims = await Promise.all(
        users.map((user) =>
          post(user, "/api/confirm-enrollment", { paymentIntentId: "free-coupon", courseId: "fixture-basics" }),
        ),
      );
      expect(claims.filter((r) => r.statusCode === 200)).toHaveLength(2);
      expect(
        (
          await db()
            .selectFrom("coupon")
            .select("redemptionCount")
            .where("id", "=", coupon.id)
            .executeTakeFirstOrThrow()
        ).redemptionCount,
      ).toBe(2);
    });

    it("a coupon deactivated or expired after the intent was made stops applying before the card is charged", async () => {
      await createCoupon(db(), { code: "SOONGONE", percentOff: 25 });
      await createCoupon(db(), { code: "SOONOLD", percentOff: 25 });
      for (const [code, change] of [
        ["SOONGONE", { active: false }],
        ["SOONOLD", { expiresAt: new Date(Date.now() - 1000).toISOString() }],
      ] as const) {
        const user = await signUpUser(t.app);
        const intent = (
          await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: code })
        ).json();
        await db().updateTable("coupon").set(change).where("code", "=", code).execute();
        const pay = await payIntent(user, intent);
        expect(pay.statusCode).toBe(400);
        expect(pay.json().message).toMatch(/Invalid coupon code|This coupon has expired/);
        const provider = await db()
          .selectFrom("sandboxPayment")
          .select("status")
          .where("id", "=", intent.paymentIntentId)
          .executeTakeFirstOrThrow();
        expect(provider.status).toBe("requires_payment_method");
        expect(await enrolled(user)).toBe(false);
      }
    });
  });

  describe("nothing paid stays unfulfilled", () => {
    it("the reconciliation sweep fulfils a payment whose confirmation never arrived", async () => {
      const user = await signUpUser(t.app);
      const intent = await startIntent(user);
      await payIntent(user, intent);
      const session = (await post(user, "/api/create-checkout-session", { courseId: "fixture-other" })).json();
      await post(user, `/api/sandbox/checkout-sessions/${session.sessionId}/pay`, { card: card() });
      expect(await enrolled(user)).toBe(false);
      const report = await reconcilePayments({ db: db(), provider: t.app.deps.payments! });
      expect(report.fulfilled).toBeGreaterThanOrEqual(2);
      expect(await enrolled(user)).toBe(true);
      expect(await enrolled(user, "fixture-other")).toBe(true);
      // The success page after that changes nothing.
      expect(
        (await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId })).statusCode,
      ).toBe(200);
      expect((await orders(user.id)).filter((o) => o.status === "paid")).toHaveLength(2);
    });

    it("auto-enroll-all asks the provider about the learner's card payments too", async () => {
      const user = await signUpUser(t.app);
      const intent = await startIntent(user);
      await payIntent(user, intent);
      expect((await post(user, "/api/auto-enroll-all")).json()).toEqual({ enrolled: ["fixture-basics"], pending: [] });
      expect(await enrolled(user)).toBe(true);
    });

    it("the sweep finishes a refund that was cut off after the order moved to refunding", async () => {
      const user = await signUpUser(t.app);
      await buy(user, "fixture-other");
      const order = await paidOrderOf(user.id);
      const longAgo = new Date(Date.now() - 10 * 60_000).toISOString();
      await db()
        .updateTable("order")
        .set({ status: "refunding", refundReason: "admin", updatedAt: longAgo })
        .where("id", "=", order.id)
        .execute();
      const report = await reconcilePayments({ db: db(), provider: t.app.deps.payments! });
      expect(report.refundsRetried).toBeGreaterThanOrEqual(1);
      expect((await orders(user.id)).map((o) => o.status)).toEqual(["refunded"]);
      expect(await enrolled(user, "fixture-other")).toBe(false);
    });

    it("fulfils against the stored quote: a price change during checkout does not strand the payer", async () => {
      const user = await signUpUser(t.app);
      const intent = await startIntent(user);
      await db().updateTable("course").set({ price: 3500 }).where("id", "=", "fixture-basics").execute();
      try {
        await payIntent(user, intent);
        const res = await post(user, "/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId });
        expect(res.statusCode).toBe(200);
        expect((await paidOrderOf(user.id)).amount).toBe(2000);
      } finally {
        await db().updateTable("course").set({ price: 2000 }).where("id", "=", "fixture-basics").execute();
      }
    });
  });

  describe("bodiless POSTs of the spec's client", () => {
    it("accept no body and no content type, as well as {}", async () => {
      const admin = await makeAdmin(await signUpUser(t.app));
      const user = await signUpUser(t.app);
      await buy(user);
      const bare = (who: TestUser, url: string) =>
        t.app.inject({ method: "POST", url, headers: { origin: TEST_ORIGIN, cookie: who.cookie } });
      expect((await bare(user, "/api/auto-enroll-all")).statusCode).toBe(200);
      expect((await post(user, "/api/auto-enroll-all", {})).statusCode).toBe(200);
      expect((await bare(user, "/api/progress/fixture-basics/lessons/alpha-one/complete")).statusCode).toBe(200);
      expect((await post(user, "/api/progress/fixture-basics/lessons/alpha-two/complete", {})).statusCode).toBe(200);
      const certificateId = await giveCertificate(user);
      expect((await bare(user, `/api/certificates/${certificateId}/reissue`)).statusCode).toBe(200);
      expect((await post(user, `/api/certificates/${certificateId}/reissue`, {})).statusCode).toBe(200);
      const coupon = await createCoupon(db(), { code: "BARE1", percentOff: 5 });
      expect((await bare(admin, `/api/admin/coupons/${coupon.id}/deactivate`)).statusCode).toBe(200);
      expect((await post(admin, `/api/admin/coupons/${coupon.id}/deactivate`, {})).statusCode).toBe(200);
      expect((await bare(admin, `/api/admin/orders/${(await paidOrderOf(user.id)).id}/refund`)).statusCode).toBe(200);
    });
  });
});

describe("money on Stripe (local fake of Stripe's API), two app servers on one database", () => {
  const WEBHOOK_SECRET = "whsec_test_money";
  const stripe = new Stripe("sk_test_fake");
  let t: TestApp;
  let fake: FakeStripe;
  let second: FastifyInstance;
  let closeSecond: () => Promise<void>;
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
    // A second app server: its own connection pool on the same database.
    const database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
    second = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
    await second.ready();
    closeSecond = async () => {
      await second.close();
      await database.close();
    };
  });
  afterAll(async () => {
    await closeSecond?.();
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.forgetRequests());
  const { db, post, enrolled, lessonStatus, makeAdmin, giveCertificate, paidOrderOf } = helpers(() => t);

  async function buy(user: TestUser, courseId = "fixture-basics") {
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId })).json();
    fake.setIntentStatus(paymentIntentId, "succeeded");
    expect((await post(user, "/api/confirm-enrollment", { paymentIntentId })).statusCode).toBe(200);
    return paymentIntentId as string;
  }
  function sendEvent(type: string, object: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`) {
    const payload = JSON.stringify({
      id,
      object: "event",
      type,
      api_version: "2024-06-20",
      created: Math.floor(Date.now() / 1000),
      data: { object },
    });
    return t.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
  }

  it("parallel refunds through two app servers make exactly one provider refund", async () => {
    const admin = await makeAdmin(await signUpUser(t.app));
    const user = await signUpUser(t.app);
    const paymentIntentId = await buy(user);
    const order = await paidOrderOf(user.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(admin, `/api/admin/orders/${order.id}/refund`, undefined, i % 2 ? second : t.app),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
    expect(fake.requests.find((r) => r.path === "/v1/refunds")?.idempotencyKey).toBe(`refund:${paymentIntentId}`);
    expect(await enrolled(user)).toBe(false);
  });

  it("parallel confirms of two paid intents through two app servers: one paid order, one refund", async () => {
    const user = await signUpUser(t.app);
    const a = (await post(user, "/api/create-payment-intent", { courseId: "fixture-other" })).json();
    const b = (await post(user, "/api/create-checkout-session", { courseId: "fixture-other" })).json();
    fake.setIntentStatus(a.paymentIntentId, "succeeded");
    fake.paySession(b.sessionId);
    const before = fake.requests.filter((r) => r.path === "/v1/refunds").length;
    await Promise.all([
      post(user, "/api/confirm-enrollment", { paymentIntentId: a.paymentIntentId }),
      post(user, "/api/auto-enroll-all", undefined, second),
    ]);
    const all = await db()
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", user.id)
      .where("status", "!=", "created")
      .execute();
    expect(all.map((o) => o.status).sort()).toEqual(["paid", "refunded"]);
    expect(fake.requests.filter((r) => r.path === "/v1/refunds").length - before).toBe(1);
    expect(await enrolled(user, "fixture-other")).toBe(true);
  });

  it("a refund or a dispute made at Stripe ends the enrolment and revokes the certificate", async () => {
    for (const type of ["charge.refunded", "charge.dispute.created"]) {
      const user = await signUpUser(t.app);
      const paymentIntentId = await buy(user);
      const certificateId = await giveCertificate(user);
      const object =
        type === "charge.refunded"
          ? { id: "ch_1", object: "charge", payment_intent: paymentIntentId, refunded: true }
          : { id: "dp_1", object: "dispute", payment_intent: paymentIntentId };
      expect((await sendEvent(type, object)).statusCode).toBe(200);
      expect(await enrolled(user)).toBe(false);
      expect(await lessonStatus(user)).toBe(403);
      const verify = (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();
      expect(verify.status).toBe("revoked");
      expect(verify.revokedReason).toBe(type === "charge.refunded" ? "refunded" : "payment disputed");
    }
  });

  it("a coupon that expired before the money arrived: the payment is refunded at Stripe, nobody enrolled", async () => {
    await createCoupon(db(), { code: "STRIPEOLD", amountOff: 500 });
    const user = await signUpUser(t.app);
    const { paymentIntentId } = (
      await post(user, "/api/create-payment-intent", { courseId: "fixture-basics", couponCode: "STRIPEOLD" })
    ).json();
    await db()
      .updateTable("coupon")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("code", "=", "STRIPEOLD")
      .execute();
    fake.setIntentStatus(paymentIntentId, "succeeded");
    const res = await post(user, "/api/confirm-enrollment", { paymentIntentId });
    expect(res.statusCode).toBe(409);
    expect(
      fake.requests.some((r) => r.path === "/v1/refunds" && r.idempotencyKey === `refund:${paymentIntentId}`),
    ).toBe(true);
    expect(await enrolled(user)).toBe(false);
  });

  it("the webhook answers 5xx when fulfilment fails, records nothing, and the redelivery fulfils", async () => {
    const user = await signUpUser(t.app);
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId: "fixture-other" })).json();
    fake.setIntentStatus(paymentIntentId, "succeeded");
    const object = { id: paymentIntentId, object: "payment_intent" };
    const eventId = `evt_outage_${paymentIntentId}`;
    fake.failing = true;
    try {
      const first = await sendEvent("payment_intent.succeeded", object, eventId);
      expect(first.statusCode).toBe(500);
    } finally {
      fake.failing = false;
    }
    expect(await db().selectFrom("webhookEvent").select("id").where("id", "=", eventId).execute()).toHaveLength(0);
    expect(await enrolled(user, "fixture-other")).toBe(false);
    const retry = await sendEvent("payment_intent.succeeded", object, eventId);
    expect(retry.statusCode).toBe(200);
    expect(await enrolled(user, "fixture-other")).toBe(true);
    expect(await db().selectFrom("webhookEvent").select("id").where("id", "=", eventId).execute()).toHaveLength(1);
  });

  it("auto-enroll-all and the sweep ask Stripe about payments whose confirmation never arrived", async () => {
    const user = await signUpUser(t.app);
    const a = (await post(user, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    fake.setIntentStatus(a.paymentIntentId, "succeeded");
    expect((await post(user, "/api/auto-enroll-all")).json().enrolled).toEqual(["fixture-basics"]);
    const b = (await post(user, "/api/create-checkout-session", { courseId: "fixture-other" })).json();
    fake.paySession(b.sessionId);
    await reconcilePayments({ db: db(), provider: t.app.deps.payments! });
    expect(await enrolled(user, "fixture-other")).toBe(true);
  });
});

describe("payment settings in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: "production" } });
  });
  afterAll(async () => t?.close());

  it("with no provider configured, says purchasing is off and refuses to start a payment", async () => {
    expect((await request(t.app, "GET", "/api/payments/config")).json()).toEqual({
      enabled: false,
      provider: "none",
      publishableKey: null,
      testPaymentsBanner: false,
    });
    const user = await signUpUser(t.app);
    const res = await request(t.app, "POST", "/api/create-payment-intent", {
      cookie: user.cookie,
      payload: { courseId: "fixture-basics" },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe("Purchasing is not available yet.");
  });
});
