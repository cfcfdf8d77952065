import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * `user.erasedAt`: when the account was erased (docs/decisions/0051). The erasure sets it in the same
 * transaction that deletes the account's data, holding the user row's lock; every other write that
 * belongs to the account reads it, under the same lock, inside its own transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("user").addColumn("erasedAt", t.timestamp).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("erasedAt").execute();
}
