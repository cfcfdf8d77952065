import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("coupon")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique()) // stored upper-case: codes match case-insensitively
    .addColumn("percentOff", "integer")
    .addColumn("amountOff", "integer")
    .addColumn("courseId", "text", (c) => c.references("course.id"))
    .addColumn("expiresAt", t.timestamp)
    .addColumn("maxRedemptions", "integer")
    .addColumn("redemptionCount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("order")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("originalAmount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("couponId", "text", (c) => c.references("coupon.id"))
    .addColumn("couponCode", "text")
    .addColumn("provider", "text", (c) => c.notNull())
    // One order per provider payment: retries and duplicate events cannot add a second.
    .addColumn("providerPaymentId", "text", (c) => c.notNull().unique())
    .addColumn("providerSessionId", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("refundId", "text")
    .addColumn("refundedAt", t.timestamp)
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_user_idx").on("order").columns(["userId", "courseId"]).execute();
  await db.schema
    .createTable("couponRedemption")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("couponId", "text", (c) => c.notNull().references("coupon.id"))
    .addColumn("orderId", "text", (c) => c.notNull().unique().references("order.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("checkoutSession")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("courseId", "text", (c) => c.notNull().references("course.id"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("checkoutSession_user_idx").on("checkoutSession").columns(["userId", "status"]).execute();
  // The built-in sandbox provider keeps its payments here, so any app server can answer for them.
  await db.schema
    .createTable("sandboxPayment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull()) // intent | session
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("clientSecret", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("idempotencyKey", "text", (c) => c.unique())
    .addColumn("paymentIntentId", "text")
    .addColumn("lastError", "text")
    .addColumn("cardLast4", "text")
    .addColumn("settleAt", t.timestamp)
    .addColumn("refundedAmount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhookEvent")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("receivedAt", t.timestamp, (c) => c.notNull())
    .execute();
}
