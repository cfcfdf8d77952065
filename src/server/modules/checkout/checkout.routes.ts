import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { FREE_COUPON_PAYMENT, PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import {
  autoEnrollResponseSchema,
  checkoutSessionResponseSchema,
  confirmEnrollmentInputSchema,
  confirmEnrollmentResponseSchema,
  createCheckoutSessionInputSchema,
  createPaymentIntentInputSchema,
  paymentIntentResponseSchema,
  paymentsConfigSchema,
  validateCouponInputSchema,
  validateCouponResponseSchema,
} from "#shared/schemas/checkout.ts";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { purchaseListSchema, purchaseParamsSchema, purchaseSchema } from "#shared/schemas/purchases.ts";
import { AppError, badRequest } from "../../errors.ts";
import type { PaymentProvider } from "../../payments/provider.ts";
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
import type { FulfilmentDeps } from "./fulfilment.ts";
import { registerPaymentJobs } from "./payment-timers.ts";
import { getPurchase, listPurchases } from "./receipts.ts";
import { sandboxRoutes } from "./sandbox.routes.ts";
import { webhookRoutes } from "./webhooks.routes.ts";

export function checkoutRoutes(catalogue: CourseCatalogue, provider: PaymentProvider | null): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, config } = app.deps;
    const db = database.db;
    const deps = (): FulfilmentDeps => {
      if (!provider) throw new AppError(503, `${PURCHASING_UNAVAILABLE}.`);
      return { db, provider };
    };
    const titleOf = async (courseId: string) => (await catalogue.course(courseId))?.card.title ?? courseId;
    if (!provider)
      app.log.warn(
        `${PURCHASING_UNAVAILABLE}: no payment provider in production. To take payments set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (Stripe), or PAYMENTS_PROVIDER=sandbox for test payments only.`,
      );

    app.get("/api/payments/config", { schema: { response: { 200: paymentsConfigSchema } } }, async () => ({
      enabled: !!provider,
      provider: provider?.name ?? ("none" as const),
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
      { schema: { body: emptyBodySchema, response: { 200: autoEnrollResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return autoEnrollAll(deps(), user);
      },
    );

    if (provider?.name === "stripe") await app.register(webhookRoutes(provider));
    if (provider?.name === "sandbox") await app.register(sandboxRoutes(catalogue, provider as SandboxProvider));
    if (provider) registerPaymentJobs(app, provider, config.paymentsReconcileSeconds);

    app.get("/api/purchases", { schema: { response: { 200: purchaseListSchema } } }, async (request) => {
      const user = await requireUser(request);
      return listPurchases(db, catalogue, user.id);
    });
    app.get(
      "/api/purchases/:orderId",
      { schema: { params: purchaseParamsSchema, response: { 200: purchaseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return getPurchase(db, catalogue, user.id, request.params.orderId);
      },
    );
  };
}
