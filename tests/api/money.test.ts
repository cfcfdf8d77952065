import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { openDatabase } from "#server/db/database.ts";
import { newCertificateId } from "#server/modules/certificates/certificates.service.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { type FakeStripe, startFakeStripe } from "../setup/fake-stripe.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

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
  const giveCertificate = async (user: TestUser, courseId = "fixture-basics") => {
    const certificateId = newCertificateId();
    const now = new Date().toISOString();
    await db()
      .insertInto("certificate")
      .values({
        id: certificateId,
        certificateId,
        userId: user.id,
        courseId,
        firstName: "Test",
        lastName: "Learner",
        completedAt: now,
        expiresAt: new Date(Date.now() + 365 * 86400_000).toISOString(),
        issuedAt: now,
        revokedAt: null,
        revokedReason: null,
      })
      .execute();
    return certificateId;
  };
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
  const { db, post, enrolled, lessonStatus, makeAdmin, giveCertificate, paidOrderOf } = helpers(() => t);

  async function buy(user: TestUser, courseId = "fixture-basics") {
    const { paymentIntentId } = (await post(user, "/api/create-payment-intent", { courseId })).json();
    fake.setIntentStatus(paymentIntentId, "succeeded");
    expect((await post(user, "/api/confirm-enrollment", { paymentIntentId })).statusCode).toBe(200);
    return paymentIntentId as string;
  }
  function sendEvent(type: string, object: Record<string, unknown>) {
    const payload = JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
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
});
