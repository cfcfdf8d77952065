import type { Kysely } from "kysely";
import { CURRENCY } from "#shared/constants.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden, notFound } from "../../errors.ts";
import type { PaymentProvider } from "../../payments/provider.ts";
import { applyCoupon, normaliseCode, redeemCoupon } from "../coupons/coupons.service.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { recordPaidOrder } from "./orders.repository.ts";

export interface FulfilmentResult {
  status: string;
  courseId: string;
  userId: string;
  /** True once the learner is enrolled from this payment (now or by an earlier call). */
  fulfilled: boolean;
}

export interface FulfilmentDeps {
  db: Kysely<DB>;
  provider: PaymentProvider;
  catalogue: CourseCatalogue;
}

/**
 * The one way a payment becomes an enrolment. It asks the provider for the payment, checks it
 * (succeeded, amount, currency, course, user), then writes the order, the enrolment and the coupon
 * redemption in one transaction. Unique keys on the provider payment id and on (user, course)
 * make retries, duplicate webhooks and parallel calls harmless.
 */
export async function fulfilPayment(
  deps: FulfilmentDeps,
  paymentIntentId: string,
  options: { expectedUserId?: string; sessionId?: string } = {},
): Promise<FulfilmentResult> {
  const intent = await deps.provider.retrievePaymentIntent(paymentIntentId);
  if (!intent) throw notFound("Payment not found.");
  const { userId, courseId, originalAmount, couponCode } = intent.metadata;
  if (!userId || !courseId) throw forbidden("This payment is not for an academy course.");
  if (options.expectedUserId && options.expectedUserId !== userId) throw notFound("Payment not found.");
  if (intent.status !== "succeeded") return { status: intent.status, courseId, userId, fulfilled: false };

  const course = await deps.catalogue.course(courseId);
  if (!course) throw forbidden("This payment is for a course that no longer exists.");
  const coupon = couponCode
    ? await deps.db.selectFrom("coupon").selectAll().where("code", "=", normaliseCode(couponCode)).executeTakeFirst()
    : undefined;
  const expected = applyCoupon(course.card.price, coupon ?? null);
  if (
    Number(originalAmount) !== course.card.price ||
    intent.amount !== expected ||
    intent.currency.toLowerCase() !== CURRENCY
  ) {
    throw forbidden("The payment does not match the course price.");
  }
  const user = await deps.db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
  if (!user) throw forbidden("This payment's learner no longer exists.");

  await deps.db.transaction().execute(async (trx) => {
    const orderId = await recordPaidOrder(trx, {
      userId,
      courseId,
      amount: intent.amount,
      originalAmount: course.card.price,
      coupon: coupon ?? null,
      provider: deps.provider.name,
      providerPaymentId: intent.id,
      providerSessionId: options.sessionId,
      enrollmentSource: "purchase",
    });
    if (!orderId) return; // an earlier call fulfilled this payment
    // The discount was honoured when the learner paid, so a paid order always records its redemption.
    if (coupon) await redeemCoupon(trx, { couponId: coupon.id, orderId, userId, enforceLimit: false });
    if (options.sessionId)
      await trx
        .updateTable("checkoutSession")
        .set({ status: "complete" })
        .where("id", "=", options.sessionId)
        .execute();
  });
  return { status: "succeeded", courseId, userId, fulfilled: true };
}

/** A hosted checkout session: fulfils its payment once the provider says it is paid. */
export async function fulfilCheckoutSession(
  deps: FulfilmentDeps,
  sessionId: string,
  options: { expectedUserId?: string } = {},
): Promise<FulfilmentResult | null> {
  const session = await deps.provider.retrieveCheckoutSession(sessionId);
  if (!session) return null;
  if (options.expectedUserId && session.metadata.userId !== options.expectedUserId) return null;
  if (!session.paid || !session.paymentIntentId) {
    if (session.status === "expired")
      await deps.db.updateTable("checkoutSession").set({ status: "expired" }).where("id", "=", sessionId).execute();
    return {
      status: session.status,
      courseId: session.metadata.courseId ?? "",
      userId: session.metadata.userId ?? "",
      fulfilled: false,
    };
  }
  return fulfilPayment(deps, session.paymentIntentId, { expectedUserId: options.expectedUserId, sessionId });
}
