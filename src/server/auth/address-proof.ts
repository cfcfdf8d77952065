import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

/**
 * Someone just proved they own the account's address (verification link or password reset;
 * docs/decisions/0023). Every session opened before the proof ends. The password set before the proof
 * stays only when `keepPassword`: the proof came in a request carrying one of those sessions, i.e. from
 * whoever chose that password. Otherwise it may be a stranger's (someone signed up with this address
 * first), so it no longer opens the account; the owner chooses one through a reset link.
 */
export async function endAccessOpenedBeforeProof(db: Kysely<DB>, userId: string, keepPassword: boolean) {
  // The password first: a sign-in racing with the proof then fails its password check or, if it passed
  // already, its session is one of those deleted next.
  if (!keepPassword) {
    await db
      .updateTable("account")
      .set({ password: null })
      .where("userId", "=", userId)
      .where("providerId", "=", "credential")
      .execute();
  }
  await db.deleteFrom("session").where("userId", "=", userId).execute();
}

/** A password reset proves the address too. */
export async function markAddressVerified(db: Kysely<DB>, userId: string) {
  await db.updateTable("user").set({ emailVerified: true }).where("id", "=", userId).execute();
}
