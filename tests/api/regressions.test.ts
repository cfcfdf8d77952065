import { afterAll, describe, expect, it } from "vitest";
import { fulfilPayment } from "#server/modules/checkout/fulfilment.ts";
import type { PaymentProvider } from "#server/payments/provider.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { takeAssessment } from "../setup/assessments.ts";
import { completeLessons, newLearner, passQuiz } from "../setup/factories.ts";
import { createTestApp, request, type TestUser } from "../setup/test-app.ts";

// Rules that once broke without any test noticing.
const t = await createTestApp();
afterAll(async () => t.close());

const post = (user: TestUser, url: string, payload: unknown = {}) =>
  request(t.app, "POST", url, { cookie: user.cookie, payload });

describe("the certificate needs every lesson of a module without a quiz", () => {
  it("refuses the certificate while gamma (no quiz) has an unread lesson, and issues it once it is read", async () => {
    const learner = await newLearner(t, { enrolledIn: ["fixture-basics"] });
    await passQuiz(t, learner, "alpha");
    await passQuiz(t, learner, "beta");
    const early = await post(learner, "/api/certificate", { courseId: "fixture-basics" });
    expect(early.statusCode).toBe(409);
    const detail = (await request(t.app, "GET", "/api/courses/fixture-basics", { cookie: learner.cookie })).json();
    expect(detail.allModulesComplete).toBe(false);
    expect(detail.modules.map((m: { state: string }) => m.state)).toEqual(["complete", "complete", "in-progress"]);

    await completeLessons(t, learner, "fixture-basics", ["gamma-one"]);
    // Every module complete now, but the course is not: the other lessons and the final exam remain.
    const stillEarly = await post(learner, "/api/certificate", { courseId: "fixture-basics" });
    expect(stillEarly.statusCode).toBe(409);
    expect(stillEarly.json().message).toMatch(/^Complete 4 lessons and the final exam/);
    await completeLessons(t, learner, "fixture-basics", ["alpha-one", "alpha-two", "beta-one", "beta-two"]);
    await takeAssessment(t.app, learner.cookie, "fixture-basics", "exam");
    expect((await post(learner, "/api/certificate", { courseId: "fixture-basics" })).statusCode).toBe(200);
  });
});

describe("a payment is settled once", () => {
  it("two fulfilments that both read the order unpaid give one enrolment, a paid order and no refund", async () => {
    const learner = await newLearner(t);
    const intent = (await post(learner, "/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    const card = { number: SANDBOX_CARDS.success, expMonth: 12, expYear: 2099, cvc: "123" };
    await post(learner, `/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
      clientSecret: intent.clientSecret,
      card,
    });

    // Both calls fetch the payment, then wait for each other, so both read the order while it is
    // still unpaid and race to settle it (a confirm and a webhook arriving together).
    const provider = t.app.deps.payments as PaymentProvider;
    let arrived = 0;
    let releaseBoth!: () => void;
    const bothArrived = new Promise<void>((resolve) => {
      releaseBoth = resolve;
    });
    const refunds: string[] = [];
    const racing: PaymentProvider = Object.assign(Object.create(provider), {
      retrievePaymentIntent: async (id: string) => {
        const payment = await provider.retrievePaymentIntent(id);
        if (++arrived === 2) releaseBoth();
        await bothArrived;
        return payment;
      },
      refund: async (id: string, amount: number) => {
        refunds.push(id);
        return provider.refund(id, amount);
      },
    });
    const deps = { db: t.testDb.database.db, provider: racing };
    const results = await Promise.all([
      fulfilPayment(deps, intent.paymentIntentId),
      fulfilPayment(deps, intent.paymentIntentId),
    ]);

    expect(results.map((r) => r.fulfilled)).toEqual([true, true]);
    expect(refunds).toEqual([]);
    const db = t.testDb.database.db;
    const orders = await db.selectFrom("order").select(["status"]).where("userId", "=", learner.id).execute();
    expect(orders).toEqual([{ status: "paid" }]);
    const enrolments = await db.selectFrom("enrollment").select("id").where("userId", "=", learner.id).execute();
    expect(enrolments).toHaveLength(1);
    const audit = await db
      .selectFrom("auditLog")
      .select("action")
      .where("action", "=", "order.refund-automatic")
      .execute();
    expect(audit).toEqual([]);
  });
});
