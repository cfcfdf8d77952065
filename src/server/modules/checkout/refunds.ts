import type { Kysely, Transaction } from "kysely";
import { REFUND_WINDOW_DAYS } from "#shared/constants.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import { isAccountErased } from "../../db/account-lock.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, conflict, messageOf, notFound } from "../../errors.ts";
import type { PaymentProvider } from "../../payments/provider.ts";
import { recordAudit } from "../audit/audit.ts";
import { REFUND_REVOKE_REASON, revokeCertificate } from "../certificates/certificates.service.ts";
import { deleteEnrollment } from "../enrollments/enrollments.repository.ts";
import { findOrder, findOrderByPayment, moveOrder, type Order } from "./orders.repository.ts";
import { recordReceipt } from "./receipts.ts";

/** Who the audit log names for what the payment system does on its own. */
export const SYSTEM_ACTOR = { id: "system", email: "payments (automatic)" } as const;
type Actor = Pick<CurrentUser, "id" | "email">;

const DAY_MS = 24 * 60 * 60 * 1000;

export { REFUND_REVOKE_REASON };
export const DISPUTE_REVOKE_REASON = "payment disputed";

/**
 * paid|refunding -> refunded, in one transaction with what the payment gave: when this order owned
 * the course, the enrolment ends and that course's certificate is revoked. Returns false when an
 * earlier call (or a provider event) already finished it.
 */
export async function completeRefund(
  db: Kysely<DB>,
  orderId: string,
  details: {
    refundId: string | null;
    reason: string;
    actor: Actor;
    revokeReason?: string;
    inTransaction?: (trx: Transaction<DB>) => Promise<void>;
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await details.inTransaction?.(trx);
    const order = await findOrder(trx, orderId);
    if (!order) return false;
    const now = new Date().toISOString();
    const moved = await moveOrder(trx, order.id, ["paid", "refunding"], "refunded", {
      refundId: details.refundId,
      refundedAt: now,
      refundReason: order.refundReason ?? details.reason,
      ownershipKey: null,
    });
    if (!moved) return false;
    // An erased account's address is a placeholder: no receipt is written for it (decision 0051).
    if (!(await isAccountErased(trx, order.userId))) await recordReceipt(trx, order.id, "refund");
    let revoked: string[] = [];
    if (order.ownershipKey) {
      await deleteEnrollment(trx, order.userId, order.courseId);
      revoked = await revokeCertificate(
        trx,
        { userId: order.userId, courseId: order.courseId },
        details.revokeReason ?? REFUND_REVOKE_REASON,
      );
    }
    await recordAudit(trx, details.actor, "order.refund", order.id, {
      reason: order.refundReason ?? details.reason,
      amount: order.amount,
      courseId: order.courseId,
      userId: order.userId,
      refundId: details.refundId,
      accessEnded: !!order.ownershipKey,
      certificatesRevoked: revoked,
    });
    return true;
  });
}

async function providerRefund(provider: PaymentProvider | null, order: Order): Promise<string> {
  if (order.amount === 0) return `none:${order.id}`;
  if (!provider || provider.name !== order.provider)
    throw new AppError(503, `This order was paid through ${order.provider}, which this server is not set up for.`);
  // Idempotent at the provider (one refund per payment), so a retry after a crash cannot refund twice.
  return (await provider.refund(order.providerPaymentId, order.amount)).id;
}

/** The provider refund for an order already moved to 'refunding', then -> refunded. */
export async function sendRefund(
  deps: { db: Kysely<DB>; provider: PaymentProvider | null },
  order: Order,
  actor: Actor = SYSTEM_ACTOR,
): Promise<string> {
  const refundId = await providerRefund(deps.provider, order);
  await completeRefund(deps.db, order.id, { refundId, reason: order.refundReason ?? "admin", actor });
  return refundId;
}

/**
 * An admin's refund within the refund window. The guarded paid -> refunding update comes before the
 * provider call, so parallel requests (on any number of app servers) make exactly one refund.
 */
export async function refundOrder(
  deps: { db: Kysely<DB>; provider: PaymentProvider | null },
  actor: CurrentUser,
  orderId: string,
) {
  const { db } = deps;
  const order = await findOrder(db, orderId);
  if (!order) throw notFound("Order not found.");
  const refusal = (status: string) =>
    conflict(
      status === "refunding"
        ? "A refund for this order is already under way."
        : status === "created"
          ? "This order was never paid."
          : "This order has already been refunded.",
    );
  if (order.status !== "paid") throw refusal(order.status);
  if (order.amount === 0) throw conflict("This course was claimed free with a coupon: there is no payment to refund.");
  const enrollment = await db
    .selectFrom("enrollment")
    .select("createdAt")
    .where("userId", "=", order.userId)
    .where("courseId", "=", order.courseId)
    .executeTakeFirst();
  const since = new Date(enrollment?.createdAt ?? order.paidAt ?? order.createdAt).getTime();
  if (Date.now() - since > REFUND_WINDOW_DAYS * DAY_MS) {
    throw conflict(
      `Refunds are only possible within ${REFUND_WINDOW_DAYS} days of enrollment; this learner enrolled ${Math.floor((Date.now() - since) / DAY_MS)} days ago.`,
    );
  }
  if (!(await moveOrder(db, order.id, ["paid"], "refunding", { refundReason: "admin" }))) {
    throw refusal((await findOrder(db, order.id))?.status ?? "refunded");
  }
  let refundId: string;
  try {
    refundId = await providerRefund(deps.provider, order);
  } catch (error) {
    // The provider refused: nothing was refunded, so the order is paid again.
    await moveOrder(db, order.id, ["refunding"], "paid", { refundReason: null });
    if (error instanceof AppError) throw error;
    throw new AppError(502, `The payment provider did not refund: ${messageOf(error)}`);
  }
  await completeRefund(db, order.id, { refundId, reason: "admin", actor });
  return { id: order.id, status: "refunded" as const, refundId };
}

/** A refund or dispute the provider reports (e.g. made in Stripe's dashboard) ends access the same way. */
export async function endOrderForProviderEvent(
  db: Kysely<DB>,
  paymentIntentId: string,
  kind: "provider-refund" | "dispute",
  refundId: string | null,
  inTransaction?: (trx: Transaction<DB>) => Promise<void>,
): Promise<boolean> {
  const order = await findOrderByPayment(db, paymentIntentId);
  if (!order || (order.status !== "paid" && order.status !== "refunding")) {
    if (inTransaction) await db.transaction().execute(inTransaction);
    return false;
  }
  return completeRefund(db, order.id, {
    refundId,
    inTransaction,
    reason: kind,
    actor: SYSTEM_ACTOR,
    revokeReason: kind === "dispute" ? DISPUTE_REVOKE_REASON : REFUND_REVOKE_REASON,
  });
}
