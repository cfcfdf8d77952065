import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { columnTypes } from "./types.ts";

/**
 * Receipts are outbox messages now (docs/decisions/0050): the receipts still waiting in `receiptMail`
 * become queued outbox rows with the same data the checkout module writes, and the table goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const waiting = await db
    .selectFrom("receiptMail")
    .innerJoin("order", "order.id", "receiptMail.orderId")
    .innerJoin("user", "user.id", "order.userId")
    .leftJoin("course", "course.id", "order.courseId")
    .select([
      "receiptMail.kind as receiptKind",
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
    .where("receiptMail.sentAt", "is", null)
    .execute();
  const at = new Date().toISOString();
  for (const row of waiting) {
    const kind = row.receiptKind === "refund" ? "refund" : row.kind === "free" ? "free" : "payment";
    const date = row.receiptKind === "refund" ? row.refundedAt : row.paidAt;
    await db
      .insertInto("outboxEmail")
      .values({
        id: randomUUID(),
        key: `receipt:${row.id}:${row.receiptKind}`,
        toAddress: row.email,
        userId: row.userId,
        template: "receipt",
        data: JSON.stringify({
          kind,
          orderId: row.id,
          courseTitle: row.title ?? row.courseId,
          amount: formatPrice(row.amount),
          originalAmount: formatPrice(row.originalAmount),
          couponCode: row.couponCode,
          date: formatLongDate(date instanceof Date ? date.toISOString() : date),
        }),
        status: "queued",
        attempts: 0,
        nextAttemptAt: at,
        createdAt: at,
      })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }
  await db.schema.dropTable("receiptMail").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("receiptMail")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("orderId", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("claimedAt", t.timestamp)
    .addColumn("sentAt", t.timestamp)
    .addUniqueConstraint("receipt_mail_uq", ["orderId", "kind"])
    .execute();
  await db.schema.createIndex("receipt_mail_unsent_idx").on("receiptMail").column("sentAt").execute();
}
