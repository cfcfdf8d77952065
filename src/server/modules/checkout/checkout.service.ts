import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { CURRENCY } from "#shared/constants.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ConfirmEnrollmentResponse, PaymentIntentResponse } from "#shared/schemas/checkout.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest, conflict } from "../../errors.ts";
import { applyCoupon, findValidCoupon, redeemCoupon, toCouponSummary } from "../coupons/coupons.service.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { isEnrolled } from "../enrollments/enrollments.repository.ts";
import { type FulfilmentDeps, fulfilCheckoutSession, fulfilPayment } from "./fulfilment.ts";
import { recordPaidOrder } from "./orders.repository.ts";

export const ALREADY_ENROLLED = "You are already enrolled in this course";

async function refuseIfEnrolled(db: Kysely<DB>, userId: string, courseId: string) {
  if (await isEnrolled(db, userId, courseId)) throw conflict(ALREADY_ENROLLED);
}

function refuseComingSoon(course: CatalogueCourse) {
  if (course.card.comingSoon) throw badRequest("This course is not on sale yet.");
}

/** The price is always the server's; the client names a course and maybe a coupon, never an amount. */
async function priceFor(db: Kysely<DB>, course: CatalogueCourse, couponCode?: string) {
  const coupon = couponCode ? await findValidCoupon(db, couponCode, course.card.id) : null;
  return { coupon, amount: applyCoupon(course.card.price, coupon), originalAmount: course.card.price };
}

export async function createPaymentIntent(
  deps: FulfilmentDeps,
  user: CurrentUser,
  course: CatalogueCourse,
  couponCode?: string,
): Promise<PaymentIntentResponse> {
  refuseComingSoon(course);
  await refuseIfEnrolled(deps.db, user.id, course.card.id);
  const { coupon, amount, originalAmount } = await priceFor(deps.db, course, couponCode);
  const base = {
    provider: deps.provider.name,
    publishableKey: deps.provider.publishableKey,
    amount,
    originalAmount,
    currency: CURRENCY,
    coupon: coupon ? toCouponSummary(coupon) : null,
  };
  if (amount === 0) return { ...base, paymentIntentId: null, clientSecret: null, isFree: true, freeEnrollment: true };
  const intent = await deps.provider.createPaymentIntent({
    amount,
    currency: CURRENCY,
    description: course.card.title,
    metadata: {
      userId: user.id,
      courseId: course.card.id,
      originalAmount: String(originalAmount),
      ...(coupon ? { couponCode: coupon.code } : {}),
    },
    // Same learner, course, coupon and amount: the same intent, so a reload never makes a second one.
    idempotencyKey: `pi:${user.id}:${course.card.id}:${coupon?.code ?? "-"}:${amount}`,
  });
  return {
    ...base,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    isFree: false,
    freeEnrollment: false,
  };
}

export async function confirmEnrollment(
  deps: FulfilmentDeps,
  user: CurrentUser,
  paymentIntentId: string,
  title: (courseId: string) => Promise<string>,
): Promise<ConfirmEnrollmentResponse> {
  const result = await fulfilPayment(deps, paymentIntentId, { expectedUserId: user.id });
  if (!result.fulfilled) {
    throw new AppError(
      402,
      result.status === "processing" ? "Your payment is being processed." : `Payment status: ${result.status}.`,
    );
  }
  return {
    success: true,
    status: result.status,
    courseId: result.courseId,
    message: `Welcome to ${await title(result.courseId)}! You can now access all course materials.`,
  };
}

/** 'Claim Free Course': re-checks that the coupon makes the price zero, then redeems one slot atomically. */
export async function claimFreeCourse(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
  couponCode: string | undefined,
): Promise<ConfirmEnrollmentResponse> {
  if (!couponCode) throw badRequest("A coupon code is needed to claim a free course.");
  refuseComingSoon(course);
  await refuseIfEnrolled(db, user.id, course.card.id);
  await db.transaction().execute(async (trx) => {
    const coupon = await findValidCoupon(trx, couponCode, course.card.id);
    if (applyCoupon(course.card.price, coupon) !== 0) throw badRequest("This coupon does not make the course free.");
    const orderId = await recordPaidOrder(trx, {
      userId: user.id,
      courseId: course.card.id,
      amount: 0,
      originalAmount: course.card.price,
      coupon,
      provider: "free",
      providerPaymentId: `free:${user.id}:${course.card.id}`,
      enrollmentSource: "coupon",
    });
    if (!orderId) return;
    // Throws when the last slot is gone, which rolls the order and the enrolment back.
    await redeemCoupon(trx, { couponId: coupon.id, orderId, userId: user.id, enforceLimit: true });
  });
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
  await refuseIfEnrolled(deps.db, user.id, course.card.id);
  const { coupon, amount, originalAmount } = await priceFor(deps.db, course, couponCode);
  if (amount === 0) throw badRequest("This coupon makes the course free: claim it from the checkout page.");
  const session = await deps.provider.createCheckoutSession({
    amount,
    currency: CURRENCY,
    description: course.card.title,
    productName: `${course.card.title} (certification course)`,
    metadata: {
      userId: user.id,
      courseId: course.card.id,
      originalAmount: String(originalAmount),
      ...(coupon ? { couponCode: coupon.code } : {}),
    },
    idempotencyKey: `cs:${user.id}:${course.card.id}:${coupon?.code ?? "-"}:${amount}:${randomUUID()}`,
    successUrl: `${appUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}&course_id=${encodeURIComponent(course.card.id)}`,
    cancelUrl: `${appUrl}/course/${encodeURIComponent(course.card.id)}`,
  });
  await deps.db
    .insertInto("checkoutSession")
    .values({
      id: session.id,
      userId: user.id,
      courseId: course.card.id,
      provider: deps.provider.name,
      status: "open",
      createdAt: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  if (!session.url) throw new AppError(502, "No checkout URL received");
  return { checkoutUrl: session.url.replace("{CHECKOUT_SESSION_ID}", session.id), sessionId: session.id };
}

/** Checks this learner's open checkout sessions with the provider and fulfils only the paid ones. */
export async function autoEnrollAll(deps: FulfilmentDeps, user: CurrentUser) {
  const open = await deps.db
    .selectFrom("checkoutSession")
    .select(["id", "courseId"])
    .where("userId", "=", user.id)
    .where("status", "=", "open")
    .execute();
  const enrolled: string[] = [];
  const pending: string[] = [];
  for (const s of open) {
    const result = await fulfilCheckoutSession(deps, s.id, { expectedUserId: user.id });
    if (result?.fulfilled) enrolled.push(s.courseId);
    else if (result && result.status === "open") pending.push(s.courseId);
  }
  return { enrolled, pending };
}
