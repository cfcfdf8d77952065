import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { CURRENCY } from "#shared/constants.ts";
import type { DB } from "../../db/schema.ts";

export interface NewOrder {
  userId: string;
  courseId: string;
  amount: number;
  originalAmount: number;
  coupon: { id: string; code: string } | null;
  provider: string;
  providerPaymentId: string;
  providerSessionId?: string | null;
  enrollmentSource: string;
}

/**
 * Writes a paid order and its enrolment unless an order for this provider payment exists.
 * Returns the new order's id, or null when an earlier call already recorded the payment.
 */
export async function recordPaidOrder(trx: Transaction<DB>, order: NewOrder): Promise<string | null> {
  const now = new Date().toISOString();
  const inserted = await trx
    .insertInto("order")
    .values({
      id: randomUUID(),
      userId: order.userId,
      courseId: order.courseId,
      amount: order.amount,
      originalAmount: order.originalAmount,
      currency: CURRENCY,
      couponId: order.coupon?.id ?? null,
      couponCode: order.coupon?.code ?? null,
      provider: order.provider,
      providerPaymentId: order.providerPaymentId,
      providerSessionId: order.providerSessionId ?? null,
      status: "paid",
      refundId: null,
      refundedAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) => oc.column("providerPaymentId").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return null;
  await trx
    .insertInto("enrollment")
    .values({
      id: randomUUID(),
      userId: order.userId,
      courseId: order.courseId,
      source: order.enrollmentSource,
      createdAt: now,
    })
    .onConflict((oc) => oc.columns(["userId", "courseId"]).doNothing())
    .execute();
  return inserted.id;
}
