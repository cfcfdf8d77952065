import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * Second factors (docs/decisions/0054), in the shapes Better Auth's plugins read and write:
 * - `user.twoFactorEnabled` and `twoFactor` (the two-factor plugin): the TOTP secret and the backup
 *   codes, both encrypted with the auth secret; failed codes and the lock they lead to.
 * - `passkey` (the passkey plugin): one row per WebAuthn credential, named by its owner.
 * - `session.secondFactorAt`: when the session last confirmed a second factor or a passkey (sign-in
 *   or re-confirmation); actions that move money or credentials ask again after 10 minutes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  // A boolean default as each engine writes it (the shapes compiler binds booleans as 1 and 0).
  const pg = engineOf(db) === "postgres";
  const no = sql.raw(pg ? "false" : "0");
  const yes = sql.raw(pg ? "true" : "1");
  await db.schema
    .alterTable("user")
    .addColumn("twoFactorEnabled", t.boolean, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema.alterTable("session").addColumn("secondFactorAt", t.timestamp).execute();
  await db.schema
    .createTable("twoFactor")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backupCodes", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("verified", t.boolean, (c) => c.notNull().defaultTo(yes))
    .addColumn("failedVerificationCount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lockedUntil", t.timestamp)
    .execute();
  await db.schema.createIndex("twoFactor_userId_idx").on("twoFactor").column("userId").unique().execute();
  await db.schema.createIndex("twoFactor_secret_idx").on("twoFactor").column("secret").execute();
  await db.schema
    .createTable("passkey")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text")
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("credentialID", "text", (c) => c.notNull().unique())
    .addColumn("counter", "integer", (c) => c.notNull())
    .addColumn("deviceType", "text", (c) => c.notNull())
    .addColumn("backedUp", t.boolean, (c) => c.notNull())
    .addColumn("transports", "text")
    .addColumn("createdAt", t.timestamp)
    .addColumn("aaguid", "text")
    .execute();
  await db.schema.createIndex("passkey_userId_idx").on("passkey").column("userId").execute();
}
