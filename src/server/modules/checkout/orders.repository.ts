import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { CURRENCY } from "#shared/constants.ts";
import type { DB, OrderStatus, OrderTable } from "../../db/schema.ts";

type Db = Kysely<DB> | Transaction<DB>;
export type Order = OrderTable;

/** The quote the server stored when a payment started: what the learner will pay, and for what. */
export interface NewOrder {
  id?: string;
  userId: string;
  courseId: string;
  kind: "intent" | "session" | "free";
  amount: number;
  originalAmount: number;
  coupon: { id: string; code: string } | null;
  provider: string;
  providerPaymentId: string;
  providerSessionId?: string | null;
}

export const ownershipKey = (userId: string, courseId: string) => `${userId}:${courseId}`;

export async function insertCreatedOrder(db: Db, order: NewOrder): Promise<Order> {
  const now = new Date().toISOString();
  const row: Order = {
    id: order.id ?? randomUUID(),
    userId: order.userId,
    courseId: order.courseId,
    kind: order.kind,
    amount: order.amount,
    originalAmount: order.originalAmount,
    currency: CURRENCY,
    couponId: order.coupon?.id ?? null,
    couponCode: order.coupon?.code ?? null,
    provider: order.provider,
    providerPaymentId: order.providerPaymentId,
    providerSessionId: order.providerSessionId ?? null,
    status: "created",
    ownershipKey: null,
    refundReason: null,
    paidAt: null,
    refundId: null,
    refundedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.insertInto("order").values(row).execute();
  return row;
}

export const findOrder = (db: Db, id: string) =>
  db.selectFrom("order").selectAll().where("id", "=", id).executeTakeFirst();

export const findOrderByPayment = (db: Db, providerPaymentId: string) =>
  db.selectFrom("order").selectAll().where("providerPaymentId", "=", providerPaymentId).executeTakeFirst();

export const findOrderBySession = (db: Db, sessionId: string) =>
  db.selectFrom("order").selectAll().where("providerSessionId", "=", sessionId).executeTakeFirst();

/** The order that gives this learner this course, if any (paid, or paid with a refund under way). */
export const findOwningOrder = (db: Db, userId: string, courseId: string) =>
  db.selectFrom("order").selectAll().where("ownershipKey", "=", ownershipKey(userId, courseId)).executeTakeFirst();

/**
 * created -> paid. Sets the ownership key, so a second paid order for the same learner and course
 * fails on the unique index (the caller turns that into an automatic refund).
 * Returns false when the order was not `created` any more.
 */
export async function markOrderPaid(trx: Transaction<DB>, order: Order, providerPaymentId: string): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await trx
    .updateTable("order")
    .set({
      status: "paid",
      ownershipKey: ownershipKey(order.userId, order.courseId),
      providerPaymentId,
      paidAt: now,
      updatedAt: now,
    })
    .where("id", "=", order.id)
    .where("status", "=", "created")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A guarded status change: only from one of `from`. Returns whether this call made it. */
export async function moveOrder(
  db: Db,
  orderId: string,
  from: OrderStatus[],
  to: OrderStatus,
  set: Partial<Pick<Order, "refundReason" | "refundId" | "refundedAt" | "providerPaymentId" | "ownershipKey">> = {},
): Promise<boolean> {
  const result = await db
    .updateTable("order")
    .set({ ...set, status: to, updatedAt: new Date().toISOString() })
    .where("id", "=", orderId)
    .where("status", "in", from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Orders still waiting for their payment, oldest first (for the reconciliation sweep). */
export const listCreatedOrders = (db: Db, options: { since: string; userId?: string; limit: number }) =>
  db
    .selectFrom("order")
    .selectAll()
    .where("status", "=", "created")
    .where("kind", "!=", "free")
    .where("createdAt", ">=", options.since)
    .$if(!!options.userId, (q) => q.where("userId", "=", options.userId!))
    .orderBy("createdAt")
    .limit(options.limit)
    .execute();

export const listStuckRefunds = (db: Db, options: { before: string; limit: number }) =>
  db
    .selectFrom("order")
    .selectAll()
    .where("status", "=", "refunding")
    .where("updatedAt", "<=", options.before)
    .orderBy("updatedAt")
    .limit(options.limit)
    .execute();
