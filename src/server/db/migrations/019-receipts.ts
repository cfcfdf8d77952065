import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Receipts to mail (docs/decisions/0025): one row per order and kind (payment, refund), written in
 * the transaction that pays or refunds the order, so each receipt is sent once whichever path settled it.
 */
export async function up(db: Kysely<any>): Promise<void> {
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("receiptMail").execute();
}
