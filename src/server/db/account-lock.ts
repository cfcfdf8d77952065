import type { Kysely, Transaction } from "kysely";
import { AppError } from "../errors.ts";
import { engineOf } from "./database.ts";
import type { DB } from "./schema.ts";

type Db = Kysely<DB> | Transaction<DB>;

/** The answer to a write for an account erased meanwhile (its session was read just before the erasure). */
export const ACCOUNT_ERASED_MESSAGE = "This account has been deleted.";

export class AccountErasedError extends AppError {
  constructor() {
    super(401, ACCOUNT_ERASED_MESSAGE);
    this.name = "AccountErasedError";
  }
}

/**
 * An account's erasure is one decision every other write respects (docs/decisions/0051). The erasure
 * takes the user row for update; a write that belongs to the account reads the row for share inside
 * its own transaction. On PostgreSQL the two row locks exclude each other, so a write either commits
 * before the erasure starts (and the erasure removes what it wrote) or waits for the erasure to commit
 * and then sees it. On SQLite every write transaction holds the database's single writer lock from
 * its first statement (BEGIN IMMEDIATE), so a read inside it already sees the one order.
 */
async function readLocked(db: Db, userId: string, mode: "update" | "share") {
  const base = db.selectFrom("user").select(["id", "erasedAt"]).where("id", "=", userId);
  const locked = engineOf(db) === "postgres" ? (mode === "update" ? base.forUpdate() : base.forShare()) : base;
  return locked.executeTakeFirst();
}

/** Inside the erasure's transaction: takes the account's lock; undefined when there is no such account. */
export async function lockAccountForErasure(trx: Transaction<DB>, userId: string) {
  return readLocked(trx, userId, "update");
}

/** Inside a write's transaction: refuses (401) when the account is erased or gone; holds it live until commit. */
export async function requireLiveAccount(trx: Db, userId: string): Promise<void> {
  const row = await readLocked(trx, userId, "share");
  if (!row || row.erasedAt) throw new AccountErasedError();
}

/** The same check as a yes/no, for writes that answer an erased account differently (a payment is refunded). */
export async function isAccountErased(trx: Db, userId: string): Promise<boolean> {
  const row = await readLocked(trx, userId, "share");
  return !row || !!row.erasedAt;
}
