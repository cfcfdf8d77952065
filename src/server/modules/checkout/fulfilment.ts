import type { Kysely, Transaction } from "kysely";
import { isAccountErased } from "../../db/account-lock.ts";
import { isUniqueViolation } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, forbidden, notFound } from "../../errors.ts";
import type { PaymentProvider } from "../../payments/provider.ts";
import { recordAudit } from "../audit/audit.ts";
import { findValidCoupon, redeemCoupon } from "../coupons/coupons.service.ts";
import { createEnrollment } from "../enrollments/enrollments.repository.ts";
import {
  findOrder,
  findOrderByPayment,
  findOrderBySession,
  findOwningOrder,
  markOrderPaid,
  moveOrder,
  type Order,
} from "./orders.repository.ts";
import { recordReceipt } from "./receipts.ts";
import { SYSTEM_ACTOR, sendRefund } from "./refunds.ts";

export interface FulfilmentDeps {
  db: Kysely<DB>;
  provider: PaymentProvider;
}

/**
 * paid: this payment gave the learner the course (now or earlier).
 * pending: the provider has not taken the money (yet).
 * duplicate / coupon: the money came in but could not be honoured, so it was refunded automatically.
 */
export type FulfilmentOutcome = "paid" | "pending" | "duplicate" | "coupon" | "refunded";

export interface FulfilmentResult {
  status: string;
  courseId: string;
  userId: string;
  orderId: string;
  outcome: FulfilmentOutcome;
  /** True once the learner is enrolled from this payment (now or by an earlier call). */
  fulfilled: boolean;
  message?: string;
}

/** Work that must commit with the fulfilment (a webhook's event record). */
export type InTransaction = (trx: Transaction<DB>) => Promise<void>;

export interface FulfilOptions {
  expectedUserId?: string;
  inTransaction?: InTransaction;
}

interface PaymentFacts {
  paymentIntentId: string | null;
  amount: number;
  currency: string;
  status: string;
  succeeded: boolean;
}

class CouponRefused extends Error {}
class AccountGone extends Error {}
class AlreadyOwned extends Error {}

/**
 * Card intents: asks the provider for the payment and settles its order. Our server writes the
 * order id into every payment's metadata, so the order (the quote) is found without trusting
 * anything else the payment says.
 */
export async function fulfilPayment(
  deps: FulfilmentDeps,
  paymentIntentId: string,
  options: FulfilOptions = {},
): Promise<FulfilmentResult> {
  const intent = await deps.provider.retrievePaymentIntent(paymentIntentId);
  if (!intent) throw notFound("Payment not found.");
  const order = intent.metadata.orderId
    ? await findOrder(deps.db, intent.metadata.orderId)
    : await findOrderByPayment(deps.db, intent.id);
  if (!order || (order.kind === "intent" && order.providerPaymentId !== intent.id))
    throw forbidden("This payment is not for an academy order.");
  if (options.expectedUserId && options.expectedUserId !== order.userId) throw notFound("Payment not found.");
  return settleOrder(
    deps,
    order,
    {
      paymentIntentId: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      status: intent.status,
      succeeded: intent.status === "succeeded",
    },
    options,
  );
}

/** Hosted sessions: settles the session's order once the provider says it is paid. */
export async function fulfilCheckoutSession(
  deps: FulfilmentDeps,
  sessionId: string,
  options: FulfilOptions = {},
): Promise<FulfilmentResult | null> {
  const session = await deps.provider.retrieveCheckoutSession(sessionId);
  if (!session) return null;
  const order = session.metadata.orderId
    ? await findOrder(deps.db, session.metadata.orderId)
    : await findOrderBySession(deps.db, sessionId);
  if (!order || order.providerSessionId !== session.id) return null;
  if (options.expectedUserId && order.userId !== options.expectedUserId) return null;
  return settleOrder(
    deps,
    order,
    {
      paymentIntentId: session.paymentIntentId,
      amount: session.amount,
      currency: session.currency,
      // A complete session whose payment has not succeeded yet is a processing payment (Stripe's
      // payment_status 'unpaid' after an asynchronous method); the settle job or a webhook fulfils it.
      status: session.status === "complete" && !session.paid ? "processing" : session.status,
      succeeded: session.paid && !!session.paymentIntentId,
    },
    options,
  );
}

async function runInTransaction(db: Kysely<DB>, work?: InTransaction) {
  if (work) await db.transaction().execute(work);
}

function resultFor(order: Order, status = "succeeded"): FulfilmentResult {
  const base = { status, courseId: order.courseId, userId: order.userId, orderId: order.id };
  if (order.status === "created") return { ...base, outcome: "pending", fulfilled: false };
  if (order.status === "paid") return { ...base, outcome: "paid", fulfilled: true };
  if (order.refundReason === "duplicate")
    return {
      ...base,
      outcome: "duplicate",
      fulfilled: false,
      message: "You already own this course, so this second payment was refunded.",
    };
  if (order.refundReason === "coupon")
    return {
      ...base,
      outcome: "coupon",
      fulfilled: false,
      message: "The coupon no longer applied when the payment arrived, so the payment was refunded.",
    };
  if (order.refundReason === "erased")
    return {
      ...base,
      outcome: "refunded",
      fulfilled: false,
      message: "This account was deleted, so the payment was refunded.",
    };
  return { ...base, outcome: "refunded", fulfilled: false, message: "This payment has been refunded." };
}

/**
 * Takes the coupon slot (if any) and enrols, inside the caller's transaction. The coupon must still
 * be active, unexpired and under its limit when the money arrives (decision 0011).
 */
export async function grantCourse(trx: Transaction<DB>, order: Order, source: "purchase" | "coupon") {
  // The account was erased before the money arrived: nothing is granted, the payment is refunded.
  if (await isAccountErased(trx, order.userId)) throw new AccountGone();
  if (order.couponId) {
    try {
      const coupon = await findValidCoupon(trx, { id: order.couponId }, order.courseId);
      await redeemCoupon(trx, { couponId: coupon.id, orderId: order.id, userId: order.userId });
    } catch (error) {
      if (error instanceof AppError) throw new CouponRefused(error.message);
      throw error;
    }
  }
  const enrolled = await createEnrollment(trx, { userId: order.userId, courseId: order.courseId, source });
  // Enrolled some other way (an admin) before this payment arrived: the payment is a second charge.
  if (!enrolled) throw new AlreadyOwned();
  await recordReceipt(trx, order.id, "payment");
}

/** Why a paid order could not be granted, or null when the error is something else. */
async function refusalReason(
  db: Kysely<DB>,
  order: Order,
  error: unknown,
): Promise<"duplicate" | "coupon" | "erased" | null> {
  if (error instanceof AccountGone) return "erased";
  if (error instanceof CouponRefused) return "coupon";
  if (error instanceof AlreadyOwned) return "duplicate";
  if (isUniqueViolation(error)) {
    const owner = await findOwningOrder(db, order.userId, order.courseId);
    if (owner && owner.id !== order.id) return "duplicate";
  }
  return null;
}

/**
 * The one way a succeeded payment becomes an enrolment: checks it against the stored quote, then
 * created -> paid, coupon slot, enrolment (and the caller's extra work) in one transaction. A payment
 * that cannot be honoured (the learner already owns the course, the coupon ran out) is refunded.
 */
async function settleOrder(
  deps: FulfilmentDeps,
  order: Order,
  payment: PaymentFacts,
  options: FulfilOptions,
): Promise<FulfilmentResult> {
  if (!payment.succeeded || !payment.paymentIntentId) {
    await runInTransaction(deps.db, options.inTransaction);
    return { ...resultFor(order, payment.status), outcome: "pending", fulfilled: false };
  }
  if (order.status !== "created") {
    await runInTransaction(deps.db, options.inTransaction);
    return resultFor(order);
  }
  if (payment.amount !== order.amount || payment.currency.toLowerCase() !== order.currency)
    throw forbidden("The payment does not match the order's quote.");
  const paymentIntentId = payment.paymentIntentId;
  try {
    const settled = await deps.db.transaction().execute(async (trx) => {
      if (!(await markOrderPaid(trx, order, paymentIntentId))) return false;
      await grantCourse(trx, order, "purchase");
      await options.inTransaction?.(trx);
      return true;
    });
    if (settled) return resultFor({ ...order, status: "paid" });
  } catch (error) {
    const reason = await refusalReason(deps.db, order, error);
    if (!reason) throw error;
    return refundUnhonoured(deps, order, paymentIntentId, reason, options.inTransaction);
  }
  // Another call settled it first.
  await runInTransaction(deps.db, options.inTransaction);
  return resultFor((await findOrder(deps.db, order.id)) ?? order);
}

/** created -> refunding (with an audit row), then the provider refund and -> refunded. */
async function refundUnhonoured(
  deps: FulfilmentDeps,
  order: Order,
  paymentIntentId: string,
  reason: "duplicate" | "coupon" | "erased",
  inTransaction?: InTransaction,
): Promise<FulfilmentResult> {
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const moved = await moveOrder(trx, order.id, ["created"], "refunding", {
      refundReason: reason,
      providerPaymentId: paymentIntentId,
    });
    if (moved)
      await recordAudit(trx, SYSTEM_ACTOR, "order.refund-automatic", order.id, {
        reason,
        amount: order.amount,
        courseId: order.courseId,
        userId: order.userId,
      });
    await inTransaction?.(trx);
    return moved;
  });
  const current = { ...order, status: "refunding" as const, refundReason: reason, providerPaymentId: paymentIntentId };
  if (!claimed) return resultFor((await findOrder(deps.db, order.id)) ?? current);
  // A provider error leaves the order 'refunding'; the reconciliation sweep retries it.
  await sendRefund(deps, current).catch(() => undefined);
  return resultFor({ ...current, status: "refunded" });
}

/** 'Claim Free Course': created -> paid for a zero-amount quote, taking one coupon slot atomically. */
export async function settleFreeOrder(db: Kysely<DB>, order: Order, alreadyOwnedMessage: string): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await markOrderPaid(trx, order, order.providerPaymentId))) {
        const current = await findOrder(trx, order.id);
        if (current?.status !== "paid") throw new AppError(409, alreadyOwnedMessage);
        return;
      }
      await grantCourse(trx, order, "coupon");
    });
  } catch (error) {
    if (error instanceof CouponRefused) throw new AppError(409, error.message);
    if (error instanceof AlreadyOwned || isUniqueViolation(error)) throw new AppError(409, alreadyOwnedMessage);
    throw error;
  }
}
