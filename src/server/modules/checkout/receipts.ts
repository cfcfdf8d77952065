import type { Kysely, Transaction } from "kysely";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import type { Purchase } from "#shared/schemas/purchases.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import type { Order } from "./orders.repository.ts";

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Queues the receipt for an order's payment (or free claim) or refund in the outbox, inside the
 * transaction that moves the order: one message per order and kind (its outbox key), so every path
 * that settles the order queues it once. A deleted account keeps its orders without an address to
 * write to (decision 0025): nothing is queued for it.
 */
export async function recordReceipt(trx: Db, orderId: string, kind: "payment" | "refund") {
  const order = await trx
    .selectFrom("order")
    .innerJoin("user", "user.id", "order.userId")
    .leftJoin("course", "course.id", "order.courseId")
    .select([
      "order.id",
      "order.userId",
      "order.kind",
      "order.courseId",
      "order.amount",
      "order.originalAmount",
      "order.couponCode",
      "order.paidAt",
      "order.refundedAt",
      "user.email",
      "course.title",
    ])
    .where("order.id", "=", orderId)
    .executeTakeFirst();
  if (!order) return;
  await enqueueEmail(trx, {
    to: order.email,
    userId: order.userId,
    key: `receipt:${order.id}:${kind}`,
    template: "receipt",
    data: {
      kind: kind === "refund" ? "refund" : order.kind === "free" ? "free" : "payment",
      orderId: order.id,
      courseTitle: order.title ?? order.courseId,
      amount: formatPrice(order.amount),
      originalAmount: formatPrice(order.originalAmount),
      couponCode: order.couponCode,
      date: formatLongDate(kind === "refund" ? order.refundedAt : order.paidAt),
    },
  });
}

export async function toPurchase(order: Order, catalogue: CourseCatalogue): Promise<Purchase> {
  return {
    orderId: order.id,
    courseId: order.courseId,
    courseTitle: (await catalogue.course(order.courseId))?.card.title ?? order.courseId,
    status: order.status as Purchase["status"],
    amount: order.amount,
    originalAmount: order.originalAmount,
    currency: order.currency,
    couponCode: order.couponCode,
    kind: order.kind === "free" ? "free" : "card",
    paidAt: order.paidAt,
    refundedAt: order.refundedAt,
  };
}

/** The learner's orders that took (or returned) money or gave a course, newest first. */
export async function listPurchases(db: Db, catalogue: CourseCatalogue, userId: string): Promise<Purchase[]> {
  const orders = await db
    .selectFrom("order")
    .selectAll()
    .where("userId", "=", userId)
    .where("status", "in", ["paid", "refunding", "refunded"])
    .orderBy("createdAt", "desc")
    .execute();
  return Promise.all(orders.map((o) => toPurchase(o, catalogue)));
}

export async function getPurchase(db: Db, catalogue: CourseCatalogue, userId: string, orderId: string) {
  const order = await db
    .selectFrom("order")
    .selectAll()
    .where("id", "=", orderId)
    .where("userId", "=", userId)
    .where("status", "in", ["paid", "refunding", "refunded"])
    .executeTakeFirst();
  if (!order) throw notFound("Receipt not found.");
  return toPurchase(order, catalogue);
}
