import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import type { Purchase } from "#shared/schemas/purchases.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import type { Order } from "./orders.repository.ts";

type Db = Kysely<DB> | Transaction<DB>;
/** A claim older than this is taken to have died with its process; the receipt is sent again. */
const CLAIM_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Queues the receipt for an order's payment (or free claim) or refund, inside the transaction that
 * moves the order: one row per order and kind, so every path that settles the order queues it once.
 */
export async function recordReceipt(trx: Db, orderId: string, kind: "payment" | "refund") {
  await trx
    .insertInto("receiptMail")
    .values({ id: randomUUID(), orderId, kind, createdAt: new Date().toISOString(), claimedAt: null, sentAt: null })
    .onConflict((oc) => oc.columns(["orderId", "kind"]).doNothing())
    .execute();
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

export interface ReceiptDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  catalogue: CourseCatalogue;
  appUrl: string;
}

/** Sends the queued receipts, each by whichever process claims it first; a failed send is retried later. */
export async function sendDueReceipts(deps: ReceiptDeps, log?: { warn(obj: object, msg: string): void }) {
  const { db } = deps;
  const stale = new Date(Date.now() - CLAIM_TIMEOUT_MS).toISOString();
  const due = await db
    .selectFrom("receiptMail")
    .selectAll()
    .where("sentAt", "is", null)
    .where((eb) => eb.or([eb("claimedAt", "is", null), eb("claimedAt", "<", stale)]))
    .orderBy("createdAt")
    .limit(20)
    .execute();
  let sent = 0;
  for (const row of due) {
    const claimed = await db
      .updateTable("receiptMail")
      .set({ claimedAt: new Date().toISOString() })
      .where("id", "=", row.id)
      .where("sentAt", "is", null)
      .where((eb) => eb.or([eb("claimedAt", "is", null), eb("claimedAt", "<", stale)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    try {
      await sendReceipt(deps, row.orderId, row.kind);
      await db.updateTable("receiptMail").set({ sentAt: new Date().toISOString() }).where("id", "=", row.id).execute();
      sent++;
    } catch (error) {
      await db.updateTable("receiptMail").set({ claimedAt: null }).where("id", "=", row.id).execute();
      log?.warn({ err: error, orderId: row.orderId }, "receipt not sent; will retry");
    }
  }
  return sent;
}

async function sendReceipt(deps: ReceiptDeps, orderId: string, kind: "payment" | "refund") {
  const order = await deps.db.selectFrom("order").selectAll().where("id", "=", orderId).executeTakeFirst();
  // A deleted account keeps its orders without an address to write to (decision 0025).
  const user = order
    ? await deps.db.selectFrom("user").select("email").where("id", "=", order.userId).executeTakeFirst()
    : undefined;
  if (!order || !user) return;
  const purchase = await toPurchase(order, deps.catalogue);
  await deps.mailer.sendEmail(user.email, "receipt", {
    kind: kind === "refund" ? "refund" : purchase.kind === "free" ? "free" : "payment",
    orderId: order.id,
    courseTitle: purchase.courseTitle,
    amount: formatPrice(order.amount),
    originalAmount: formatPrice(order.originalAmount),
    couponCode: order.couponCode,
    date: formatLongDate(kind === "refund" ? purchase.refundedAt : purchase.paidAt),
    receiptUrl: `${deps.appUrl}/purchases/${order.id}`,
  });
}
