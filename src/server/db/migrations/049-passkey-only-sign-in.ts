import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.ts";
import { columnTypes } from "./types.ts";

/**
 * `user.passwordSignIn` (docs/decisions/0054): an account with a passkey may turn password sign-in
 * off, and the server then refuses a password sign-in to it; on for every account until then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const yes = sql.raw(engineOf(db) === "postgres" ? "true" : "1");
  await db.schema
    .alterTable("user")
    .addColumn("passwordSignIn", t.boolean, (c) => c.notNull().defaultTo(yes))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("passwordSignIn").execute();
}
