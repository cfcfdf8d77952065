import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * The certificate's life after issue (docs/decisions/0028): the continuing-education hours it was
 * issued with, its current credential's id, reminders sent once per certificate, kind and expiry,
 * renewals and extensions, and the holders who turned reminders off.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const float = engineOf(db) === "postgres" ? sql`double precision` : sql`real`;
  await db.schema
    .alterTable("certificate")
    .addColumn("ceHours", float as never)
    .execute();
  // The current credential's urn:uuid; null: the certificate row's id (credentials issued before renewals).
  await db.schema.alterTable("certificate").addColumn("credentialUuid", "text").execute();
  // When the current validity period began, if a renewal or extension started it (else completedAt).
  await db.schema.alterTable("certificate").addColumn("validFrom", t.timestamp).execute();
  await db.schema.createIndex("certificate_expires_idx").on("certificate").column("expiresAt").execute();

  // One row per certificate, reminder kind and expiry date: the insert that wins is the one that mails.
  await db.schema
    .createTable("certificateReminder")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificateId", "text", (c) => c.notNull().references("certificate.certificateId").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
    .addColumn("sentAt", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("certificate_reminder_uq", ["certificateId", "kind", "expiresAt"])
    .execute();

  await db.schema
    .createTable("certificateRenewal")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("certificateId", "text", (c) => c.notNull().references("certificate.certificateId").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("previousExpiresAt", t.timestamp, (c) => c.notNull())
    .addColumn("newExpiresAt", t.timestamp, (c) => c.notNull())
    .addColumn("renewedAt", t.timestamp, (c) => c.notNull())
    // The passed recertification attempt; unique, so one pass extends once however often it is applied.
    .addColumn("attemptId", "text", (c) => c.unique())
    .addColumn("actorId", "text")
    .addColumn("reason", "text")
    .addColumn("supersededCredentialId", "text")
    .addColumn("supersededCredential", "text")
    .execute();
  await db.schema
    .createIndex("certificate_renewal_cert_idx")
    .on("certificateRenewal")
    .column("certificateId")
    .execute();

  await db.schema
    .createTable("emailOptOut")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("topic", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("email_opt_out_pk", ["userId", "topic"])
    .execute();
}
