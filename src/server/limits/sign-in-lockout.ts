import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import type { HitCounter } from "./hit-counter.ts";

/** Failed sign-ins one account takes within the window before sign-in to it pauses. */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const keyOf = (email: string) => `sign-in-failures:${email.trim().toLowerCase()}`;

export function accountLockedMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or reset your password.`;
}

export interface SignInSlot {
  /** This guess's number in the window: the 1st to the 10th are checked, later ones are not. */
  number: number;
  /** Milliseconds until sign-in to the account opens again; 0 when this guess may be checked. */
  lockedForMs: number;
}

/**
 * Takes a guess's slot before its password is checked, in one atomic step (a statement, or a Redis
 * script) shared by every instance: of any number of guesses sent at once, at most
 * SIGN_IN_FAILURE_LIMIT are checked. A right password clears the count; a request refused for another
 * reason gives its slot back.
 */
export async function reserveSignInSlot(counters: HitCounter, email: string): Promise<SignInSlot> {
  const hits = await counters.count(keyOf(email), SIGN_IN_FAILURE_WINDOW_MS);
  return {
    number: hits.count,
    lockedForMs: hits.count > SIGN_IN_FAILURE_LIMIT ? Math.max(1, hits.windowEndsAt - Date.now()) : 0,
  };
}

export async function releaseSignInSlot(counters: HitCounter, email: string): Promise<void> {
  await counters.uncount(keyOf(email));
}

/**
 * After a wrong password: the guess that used the last slot (exactly one, whichever instance took
 * it) tells the account's owner, when the account exists.
 */
export async function recordFailedSignIn(
  deps: { db: Kysely<DB>; appUrl: string },
  email: string,
  slot: SignInSlot,
): Promise<void> {
  if (slot.number !== SIGN_IN_FAILURE_LIMIT) return;
  const owner = await deps.db
    .selectFrom("user")
    .select(["id", "email"])
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!owner) return;
  // The sign-in page, whose 'Forgot your password' link sends a reset e-mail.
  const resetUrl = `${deps.appUrl}/login`;
  await enqueueEmail(deps.db, {
    to: owner.email,
    userId: owner.id,
    template: "sign-in-paused",
    data: { failures: SIGN_IN_FAILURE_LIMIT, minutes: SIGN_IN_FAILURE_WINDOW_MS / 60_000, signInUrl: resetUrl },
    link: resetUrl,
  });
}

export async function clearFailedSignIns(counters: HitCounter, email: string): Promise<void> {
  await counters.clear(keyOf(email));
}
