import { type Kysely, sql } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * Orders become the server's quote: written when an intent, hosted session or free claim starts
 * (status `created`), then moved by guarded updates to `paid`, `refunding` and `refunded`.
 * `ownershipKey` ("userId:courseId") is set only on the order that gives the learner the course,
 * so a unique index allows one paid order per learner and course.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .alterTable("order")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("intent"))
    .execute();
  await db.schema.alterTable("order").addColumn("ownershipKey", "text").execute();
  await db.schema.alterTable("order").addColumn("refundReason", "text").execute();
  await db.schema.alterTable("order").addColumn("paidAt", t.timestamp).execute();
  // Orders recorded before this migration were all paid: the earliest paid one per learner and course owns it.
  await sql`
    update "order" set "ownershipKey" = "userId" || ':' || "courseId", "paidAt" = "createdAt"
    where "status" = 'paid' and "id" = (
      select o2."id" from "order" o2
      where o2."userId" = "order"."userId" and o2."courseId" = "order"."courseId" and o2."status" = 'paid'
      order by o2."createdAt", o2."id" limit 1
    )`.execute(db);
  await db.schema.createIndex("order_ownership_uq").unique().on("order").column("ownershipKey").execute();
  await db.schema.createIndex("order_status_idx").on("order").columns(["status", "createdAt"]).execute();
  // The sandbox answers a repeated refund with the first one, as Stripe does for one idempotency key.
  await db.schema.alterTable("sandboxPayment").addColumn("refundId", "text").execute();
  // Hosted sessions are orders now.
  await db.schema.dropTable("checkoutSession").execute();
}
