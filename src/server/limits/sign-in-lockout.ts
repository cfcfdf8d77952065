import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { Mailer } from "../mail/mailer.ts";
import { clearHits, countHit, readHits } from "./hit-counter.repository.ts";

/** Failed sign-ins one account takes within the window before sign-in to it pauses. */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const keyOf = (email: string) => `sign-in-failures:${email.trim().toLowerCase()}`;

export function accountLockedMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or reset your password.`;
}

/** Milliseconds until sign-in to this account opens again; 0 when it is open. */
export async function signInLockRemaining(db: Kysely<DB>, email: string, now = Date.now()): Promise<number> {
  const hits = await readHits(db, keyOf(email), now);
  return hits.count >= SIGN_IN_FAILURE_LIMIT ? hits.windowEndsAt - now : 0;
}

/**
 * Counts a failed sign-in. The failure that reaches the limit (exactly one, whichever instance
 * counts it) tells the account's owner, when the account exists.
 */
export async function recordFailedSignIn(
  deps: { db: Kysely<DB>; mailer: Mailer; appUrl: string },
  email: string,
): Promise<void> {
  const { count } = await countHit(deps.db, keyOf(email), SIGN_IN_FAILURE_WINDOW_MS);
  if (count !== SIGN_IN_FAILURE_LIMIT) return;
  const owner = await deps.db
    .selectFrom("user")
    .select("email")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!owner) return;
  // The sign-in page, whose 'Forgot your password' link sends a reset e-mail.
  const resetUrl = `${deps.appUrl}/login`;
  await deps.mailer.sendEmail(
    owner.email,
    "sign-in-paused",
    { failures: SIGN_IN_FAILURE_LIMIT, minutes: SIGN_IN_FAILURE_WINDOW_MS / 60_000, signInUrl: resetUrl },
    { link: resetUrl },
  );
}

export async function clearFailedSignIns(db: Kysely<DB>, email: string): Promise<void> {
  await clearHits(db, keyOf(email));
}
