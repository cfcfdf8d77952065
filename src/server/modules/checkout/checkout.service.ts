import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { CURRENCY } from "#shared/constants.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ConfirmEnrollmentResponse, PaymentIntentResponse } from "#shared/schemas/checkout.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest, conflict } from "../../errors.ts";
import { applyCoupon, findValidCoupon, toCouponSummary } from "../coupons/coupons.service.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { isEnrolled } from "../enrollments/enrollments.repository.ts";
import {
  type FulfilmentDeps,
  type FulfilmentResult,
  fulfilCheckoutSession,
  fulfilPayment,
  settleFreeOrder,
} from "./fulfilment.ts";
import { findOwningOrder, insertCreatedOrder, type Order } from "./orders.repository.ts";

export const ALREADY_ENROLLED = "You are already enrolled in this course";

/** Owned = enrolled, or a paid order (possibly with its refund under way) gives it. */
async function refuseIfOwned(db: Kysely<DB>, userId: string, courseId: string) {
  if ((await isEnrolled(db, userId, courseId)) || (await findOwningOrder(db, userId, courseId)))
    throw conflict(ALREADY_ENROLLED);
}

function refuseComingSoon(course: CatalogueCourse) {
  if (course.card.comingSoon) throw badRequest("This course is not on sale yet.");
}

/** The price is always the server's; the client names a course and maybe a coupon, never an amount. */
async function priceFor(db: Kysely<DB>, course: CatalogueCourse, couponCode?: string) {
  const coupon = couponCode ? await findValidCoupon(db, couponCode, course.card.id) : null;
  return { coupon, amount: applyCoupon(course.card.price, coupon), originalAmount: course.card.price };
}

const paymentMetadata = (orderId: string, user: CurrentUser, course: CatalogueCourse, couponCode?: string) => ({
  orderId,
  userId: user.id,
  courseId: course.card.id,
  originalAmount: String(course.card.price),
  ...(couponCode ? { couponCode } : {}),
});

/**
 * Stores the quote as a `created` order, then asks the provider for a payment of exactly that
 * amount, carrying the order's id. Fulfilment later checks the payment against this quote.
 */
export async function createPaymentIntent(
  deps: FulfilmentDeps,
  user: CurrentUser,
  course: CatalogueCourse,
  couponCode?: string,
): Promise<PaymentIntentResponse> {
  refuseComingSoon(course);
  await refuseIfOwned(deps.db, user.id, course.card.id);
  const { coupon, amount, originalAmount } = await priceFor(deps.db, course, couponCode);
  const base = {
    provider: deps.provider.name,
    publishableKey: deps.provider.publishableKey,
    amount,
    originalAmount,
    currency: CURRENCY,
    coupon: coupon ? toCouponSummary(coupon) : null,
  };
  const quote = {
    userId: user.id,
    courseId: course.card.id,
    amount,
    originalAmount,
    coupon: coupon ? { id: coupon.id, code: coupon.code } : null,
  };
  if (amount === 0) {
    const id = randomUUID();
    // The free claim names no coupon: it redeems this quote (the learner's latest for the course).
    await insertCreatedOrder(deps.db, {
      ...quote,
      id,
      kind: "free",
      provider: "free",
      providerPaymentId: `free:${id}`,
    });
    return { ...base, paymentIntentId: null, clientSecret: null, isFree: true, freeEnrollment: true };
  }
  // Same learner, course, coupon and amount with a payment not started: the same intent, so a reload
  // never makes a second one.
  const open = await deps.db
    .selectFrom("order")
    .selectAll()
    .where("userId", "=", user.id)
    .where("courseId", "=", course.card.id)
    .where("kind", "=", "intent")
    .where("status", "=", "created")
    .where("provider", "=", deps.provider.name)
    .where("amount", "=", amount)
    .$if(!!coupon, (q) => q.where("couponId", "=", coupon!.id))
    .$if(!coupon, (q) => q.where("couponId", "is", null))
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  const reusable = open ? await deps.provider.retrievePaymentIntent(open.providerPaymentId) : null;
  if (reusable && ["requires_payment_method", "requires_confirmation", "requires_action"].includes(reusable.status))
    return {
      ...base,
      paymentIntentId: reusable.id,
      clientSecret: reusable.clientSecret,
      isFree: false,
      freeEnrollment: false,
    };

  const orderId = randomUUID();
  const intent = await deps.provider.createPaymentIntent({
    amount,
    currency: CURRENCY,
    description: course.card.title,
    metadata: paymentMetadata(orderId, user, course, coupon?.code),
    idempotencyKey: `order:${orderId}`,
  });
  await insertCreatedOrder(deps.db, {
    ...quote,
    id: orderId,
    kind: "intent",
    provider: deps.provider.name,
    providerPaymentId: intent.id,
  });
  return {
    ...base,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    isFree: false,
    freeEnrollment: false,
  };
}

/** What a learner reads after a payment that could not be honoured (it was refunded). */
function refusedPayment(result: FulfilmentResult): AppError {
  return new AppError(409, result.message ?? "This payment could not be used and was refunded.");
}

export async function confirmEnrollment(
  deps: FulfilmentDeps,
  user: CurrentUser,
  paymentIntentId: string,
  title: (courseId: string) => Promise<string>,
): Promise<ConfirmEnrollmentResponse> {
  const result = await fulfilPayment(deps, paymentIntentId, { expectedUserId: user.id });
  if (result.outcome === "pending") {
    throw new AppError(
      402,
      result.status === "processing" ? "Your payment is being processed." : `Payment status: ${result.status}.`,
    );
  }
  if (!result.fulfilled) throw refusedPayment(result);
  return {
    success: true,
    status: result.status,
    courseId: result.courseId,
    message: `Welcome to ${await title(result.courseId)}! You can now access all course materials.`,
  };
}

/**
 * 'Claim Free Course'. With a coupon code, prices it now; without one, redeems the learner's latest
 * quote for the course, which must be free. One coupon slot is taken atomically.
 */
export async function claimFreeCourse(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
  couponCode: string | undefined,
): Promise<ConfirmEnrollmentResponse> {
  refuseComingSoon(course);
  await refuseIfOwned(db, user.id, course.card.id);
  let order: Order | undefined;
  if (couponCode) {
    const coupon = await findValidCoupon(db, couponCode, course.card.id);
    if (applyCoupon(course.card.price, coupon) !== 0) throw badRequest("This coupon does not make the course free.");
    const id = randomUUID();
    order = await insertCreatedOrder(db, {
      id,
      userId: user.id,
      courseId: course.card.id,
      kind: "free",
      amount: 0,
      originalAmount: course.card.price,
      coupon: { id: coupon.id, code: coupon.code },
      provider: "free",
      providerPaymentId: `free:${id}`,
    });
  } else {
    const latest = await db
      .selectFrom("order")
      .selectAll()
      .where("userId", "=", user.id)
      .where("courseId", "=", course.card.id)
      .where("status", "=", "created")
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (latest?.kind !== "free") throw badRequest("Apply a coupon that makes this course free before claiming it.");
    order = latest;
  }
  await settleFreeOrder(db, order, ALREADY_ENROLLED);
  return {
    success: true,
    status: "succeeded",
    courseId: course.card.id,
    message: `Welcome to ${course.card.title}! You can now access all course materials.`,
  };
}

export async function createCheckoutSession(
  deps: FulfilmentDeps,
  appUrl: string,
  user: CurrentUser,
  course: CatalogueCourse,
  couponCode?: string,
) {
  refuseComingSoon(course);
  await refuseIfOwned(deps.db, user.id, course.card.id);
  const { coupon, amount, originalAmount } = await priceFor(deps.db, course, couponCode);
  if (amount === 0) throw badRequest("This coupon makes the course free: claim it from the checkout page.");
  const orderId = randomUUID();
  const session = await deps.provider.createCheckoutSession({
    amount,
    currency: CURRENCY,
    description: course.card.title,
    productName: `${course.card.title} (certification course)`,
    metadata: paymentMetadata(orderId, user, course, coupon?.code),
    idempotencyKey: `order:${orderId}`,
    successUrl: `${appUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}&course_id=${encodeURIComponent(course.card.id)}`,
    cancelUrl: `${appUrl}/course/${encodeURIComponent(course.card.id)}`,
  });
  await insertCreatedOrder(deps.db, {
    id: orderId,
    userId: user.id,
    courseId: course.card.id,
    kind: "session",
    amount,
    originalAmount,
    coupon: coupon ? { id: coupon.id, code: coupon.code } : null,
    provider: deps.provider.name,
    // Until the session is paid, its payment is known by the session's id.
    providerPaymentId: session.id,
    providerSessionId: session.id,
  });
  if (!session.url) throw new AppError(502, "No checkout URL received");
  return { checkoutUrl: session.url.replace("{CHECKOUT_SESSION_ID}", session.id), sessionId: session.id };
}

/**
 * Before the sandbox takes money for an order: it must still be waiting, the learner must not own
 * the course, and its coupon must still apply.
 */
export async function checkPaymentMayStart(db: Kysely<DB>, order: Order) {
  if (order.status !== "created") return;
  await refuseIfOwned(db, order.userId, order.courseId);
  if (order.couponCode) await findValidCoupon(db, order.couponCode, order.courseId);
}

const OPEN_ORDER_DAYS = 7;

/** Settles one waiting order by asking the provider about its payment. */
export function settleWaitingOrder(deps: FulfilmentDeps, order: Order, expectedUserId?: string) {
  return order.kind === "session" && order.providerSessionId
    ? fulfilCheckoutSession(deps, order.providerSessionId, { expectedUserId })
    : fulfilPayment(deps, order.providerPaymentId, { expectedUserId });
}

/** Asks the provider about each of this learner's waiting payments and fulfils the paid ones. */
export async function autoEnrollAll(deps: FulfilmentDeps, user: CurrentUser) {
  const open = await deps.db
    .selectFrom("order")
    .selectAll()
    .where("userId", "=", user.id)
    .where("status", "=", "created")
    .where("kind", "!=", "free")
    .where("createdAt", ">=", new Date(Date.now() - OPEN_ORDER_DAYS * 24 * 3600 * 1000).toISOString())
    .orderBy("createdAt")
    .limit(50)
    .execute();
  const enrolled = new Set<string>();
  const pending = new Set<string>();
  for (const order of open) {
    const result = await settleWaitingOrder(deps, order, user.id).catch(() => null);
    if (result?.fulfilled) enrolled.add(order.courseId);
    else if (result && (result.status === "open" || result.status === "processing")) pending.add(order.courseId);
  }
  for (const courseId of enrolled) pending.delete(courseId);
  return { enrolled: [...enrolled], pending: [...pending] };
}
