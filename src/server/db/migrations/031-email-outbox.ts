import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * The outbox (docs/decisions/0050): one row per message the academy sends, written in the
 * transaction of the change that causes it and sent by the `email-outbox` job. `status` is queued,
 * sending, sent, failed or skipped (the holder unsubscribed from `topic` before it went out);
 * `nextAttemptAt` is when a queued row is due, and how long a sending row's claim lasts. `key` makes
 * a message that several paths may cause (a receipt per order and kind) a single row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("outboxEmail")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.unique())
    .addColumn("toAddress", "text", (c) => c.notNull())
    .addColumn("userId", "text")
    .addColumn("template", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("link", "text")
    .addColumn("topic", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("nextAttemptAt", t.timestamp, (c) => c.notNull())
    .addColumn("lastError", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("sentAt", t.timestamp)
    .execute();
  // The sender's page: due rows in the order they fall due.
  await db.schema.createIndex("outboxEmail_due_idx").on("outboxEmail").columns(["status", "nextAttemptAt"]).execute();
  // The admin page's lists, newest first, and an erasure's rows.
  await db.schema.createIndex("outboxEmail_created_idx").on("outboxEmail").columns(["status", "createdAt"]).execute();
  await db.schema.createIndex("outboxEmail_user_idx").on("outboxEmail").column("userId").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outboxEmail").execute();
}
