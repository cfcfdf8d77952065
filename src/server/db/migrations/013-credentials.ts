import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * Open Badges credentials: the issuer's signing keys (kept so rotated keys stay in the DID
 * document), one revocation-list entry per certificate, and the practitioner directory.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const float = engineOf(db) === "postgres" ? sql`double precision` : sql`real`;
  await db.schema
    .alterTable("course")
    .addColumn("studyHours", float as never)
    .execute();

  // `activeSlot` is 'active' on the one key that signs; the unique index lets several instances race to create it.
  await db.schema
    .createTable("issuerKey")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("publicKeyMultibase", "text", (c) => c.notNull())
    .addColumn("secretKeyMultibase", "text", (c) => c.notNull())
    .addColumn("activeSlot", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("issuer_key_active_uq").unique().on("issuerKey").column("activeSlot").execute();

  // Each certificate's place in a revocation list; the bit itself is read from certificate.revokedAt.
  await db.schema
    .createTable("credentialStatus")
    .addColumn("certificateId", "text", (c) => c.primaryKey())
    .addColumn("listId", "integer", (c) => c.notNull())
    .addColumn("statusIndex", "integer", (c) => c.notNull())
    .addColumn("credential", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("credential_status_slot_uq")
    .unique()
    .on("credentialStatus")
    .columns(["listId", "statusIndex"])
    .execute();

  await db.schema
    .createTable("practitionerListing")
    .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("displayName", "text", (c) => c.notNull())
    .addColumn("region", "text", (c) => c.notNull())
    .addColumn("regionKey", "text", (c) => c.notNull())
    .addColumn("bio", "text", (c) => c.notNull())
    .addColumn("contactUrl", "text", (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("practitioner_region_idx").on("practitionerListing").column("regionKey").execute();
}
