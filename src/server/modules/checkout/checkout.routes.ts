import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  autoEnrollResponseSchema,
  checkoutSessionResponseSchema,
  confirmEnrollmentInputSchema,
  confirmEnrollmentResponseSchema,
  createCheckoutSessionInputSchema,
  createPaymentIntentInputSchema,
  FREE_COUPON_PAYMENT,
  paymentIntentResponseSchema,
  paymentsConfigSchema,
  sandboxConfirmInputSchema,
  sandboxConfirmResponseSchema,
  sandboxPayInputSchema,
  sandboxPayResponseSchema,
  sandboxSessionSchema,
  validateCouponInputSchema,
  validateCouponResponseSchema,
} from "#shared/schemas/checkout.ts";
import { AppError, badRequest, notFound } from "../../errors.ts";
import { type PaymentProvider, WebhookSignatureError } from "../../payments/provider.ts";
import type { SandboxProvider } from "../../payments/sandbox.ts";
import { requireUser } from "../../plugins/auth.ts";
import { findValidCoupon, toCouponSummary } from "../coupons/coupons.service.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import {
  autoEnrollAll,
  claimFreeCourse,
  confirmEnrollment,
  createCheckoutSession,
  createPaymentIntent,
} from "./checkout.service.ts";
import { type FulfilmentDeps, fulfilCheckoutSession, fulfilPayment } from "./fulfilment.ts";

const sessionParams = z.strictObject({ sessionId: z.string().min(1).max(200) });
const intentParams = z.strictObject({ paymentIntentId: z.string().min(1).max(200) });

export function checkoutRoutes(catalogue: CourseCatalogue, provider: PaymentProvider | null): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, config } = app.deps;
    const db = database.db;
    const deps = (): FulfilmentDeps => {
      if (!provider) throw new AppError(503, "Payments are not configured on this server.");
      return { db, provider, catalogue };
    };
    const titleOf = async (courseId: string) => (await catalogue.course(courseId))?.card.title ?? courseId;

    app.get("/api/payments/config", { schema: { response: { 200: paymentsConfigSchema } } }, async () => ({
      provider: provider?.name ?? "sandbox",
      publishableKey: provider?.publishableKey ?? null,
      testPaymentsBanner: config.payments.provider === "sandbox" && config.payments.testBanner,
    }));

    app.post(
      "/api/validate-coupon",
      {
        schema: { body: validateCouponInputSchema, response: { 200: validateCouponResponseSchema } },
        // Bounded per address so codes cannot be guessed.
        config: { rateLimit: { max: 20, timeWindow: "1 minute" } },
      },
      async (request) => {
        await requireUser(request);
        const coupon = await findValidCoupon(db, request.body.couponCode, request.body.courseId);
        return { valid: true as const, coupon: toCouponSummary(coupon) };
      },
    );

    app.post(
      "/api/create-payment-intent",
      { schema: { body: createPaymentIntentInputSchema, response: { 200: paymentIntentResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const course = requireCourse(await catalogue.course(request.body.courseId));
        return createPaymentIntent(deps(), user, course, request.body.couponCode);
      },
    );

    app.post(
      "/api/confirm-enrollment",
      { schema: { body: confirmEnrollmentInputSchema, response: { 200: confirmEnrollmentResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const { paymentIntentId, courseId, couponCode } = request.body;
        if (paymentIntentId === FREE_COUPON_PAYMENT) {
          if (!courseId) throw badRequest("courseId is required for a free claim.");
          return claimFreeCourse(db, user, requireCourse(await catalogue.course(courseId)), couponCode);
        }
        return confirmEnrollment(deps(), user, paymentIntentId, titleOf);
      },
    );

    app.post(
      "/api/create-checkout-session",
      { schema: { body: createCheckoutSessionInputSchema, response: { 200: checkoutSessionResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const course = requireCourse(await catalogue.course(request.body.courseId));
        return createCheckoutSession(deps(), config.appUrl, user, course, request.body.couponCode);
      },
    );

    app.post(
      "/api/auto-enroll-all",
      { schema: { body: z.strictObject({}).nullish(), response: { 200: autoEnrollResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return autoEnrollAll(deps(), user);
      },
    );

    if (provider?.name === "stripe") {
      // Signed webhooks: the signature is checked over the exact bytes Stripe sent.
      await app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
        scope.post("/api/stripe/webhook", async (request, reply) => {
          let event: ReturnType<typeof provider.verifyWebhook>;
          try {
            event = provider.verifyWebhook(
              request.body as Buffer,
              request.headers["stripe-signature"] as string | undefined,
            );
          } catch (error) {
            if (error instanceof WebhookSignatureError)
              return reply.status(400).send({ message: `Webhook signature rejected: ${error.message}` });
            throw error;
          }
          const fresh = await db
            .insertInto("webhookEvent")
            .values({ id: event.id, type: event.type, receivedAt: new Date().toISOString() })
            .onConflict((oc) => oc.column("id").doNothing())
            .returning("id")
            .executeTakeFirst();
          if (!fresh) return { received: true, duplicate: true };
          // Events only say where to look: the payment's state is read back from Stripe, so their order does not matter.
          if (event.objectType === "payment_intent")
            await fulfilPayment(deps(), event.objectId).catch((e) =>
              request.log.warn({ err: e, event: event.id }, "payment not fulfilled"),
            );
          if (event.objectType === "checkout_session")
            await fulfilCheckoutSession(deps(), event.objectId).catch((e) =>
              request.log.warn({ err: e, event: event.id }, "session not fulfilled"),
            );
          return { received: true };
        });
      });
    }

    if (provider?.name === "sandbox") {
      const sandbox = provider as SandboxProvider;
      app.post(
        "/api/sandbox/payment-intents/:paymentIntentId/confirm",
        {
          schema: {
            params: intentParams,
            body: sandboxConfirmInputSchema,
            response: { 200: sandboxConfirmResponseSchema },
          },
        },
        async (request) => {
          const user = await requireUser(request);
          const intent = await sandbox.retrievePaymentIntent(request.params.paymentIntentId);
          if (!intent || intent.metadata.userId !== user.id) throw notFound("Payment not found.");
          const result = await sandbox
            .confirmPaymentIntent(intent.id, request.body.clientSecret, request.body.card)
            .catch(() => {
              throw notFound("Payment not found.");
            });
          return { status: result.status, error: result.lastError };
        },
      );

      app.get(
        "/api/sandbox/checkout-sessions/:sessionId",
        { schema: { params: sessionParams, response: { 200: sandboxSessionSchema } } },
        async (request) => {
          const user = await requireUser(request);
          const session = await sandbox.retrieveCheckoutSession(request.params.sessionId);
          if (!session || session.metadata.userId !== user.id) throw notFound("Checkout session not found.");
          const courseId = session.metadata.courseId;
          return {
            id: session.id,
            status: session.status,
            amount: session.amount,
            currency: session.currency,
            courseTitle: await titleOf(courseId),
            successUrl: `/checkout/success?session_id=${encodeURIComponent(session.id)}&course_id=${encodeURIComponent(courseId)}`,
            cancelUrl: `/course/${encodeURIComponent(courseId)}`,
          };
        },
      );

      app.post(
        "/api/sandbox/checkout-sessions/:sessionId/pay",
        { schema: { params: sessionParams, body: sandboxPayInputSchema, response: { 200: sandboxPayResponseSchema } } },
        async (request) => {
          const user = await requireUser(request);
          const existing = await sandbox.retrieveCheckoutSession(request.params.sessionId);
          if (!existing || existing.metadata.userId !== user.id) throw notFound("Checkout session not found.");
          const { session, error } = await sandbox.payCheckoutSession(existing.id, request.body.card);
          if (error) return { redirectUrl: null, error };
          return {
            redirectUrl: `/checkout/success?session_id=${encodeURIComponent(session.id)}&course_id=${encodeURIComponent(session.metadata.courseId)}`,
            error: null,
          };
        },
      );

      // Payments left 'processing' settle a few seconds later and go through the same fulfilment;
      // one instance settles each turn.
      app.deps.jobs.every("sandbox-settle", 1000, async () => {
        const ids = await sandbox.settleDuePayments();
        await Promise.all(ids.map((id) => fulfilPayment(deps(), id)));
      });
    }
  };
}
