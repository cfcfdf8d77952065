import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { HitCounter } from "../limits/hit-counter.ts";
import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_FAILURE_WINDOW_MS } from "../limits/sign-in-lockout.ts";
import { signedCookieReader } from "./session-cookie.ts";

/**
 * Second-factor codes are guarded like passwords (docs/decisions/0054), in the shared counters (Redis,
 * or the database) so every instance sees the same counts:
 * - per account, at most SIGN_IN_FAILURE_LIMIT wrong codes in SIGN_IN_FAILURE_WINDOW_MS, whether the
 *   code comes from a sign-in or from a re-confirmation; a slot is taken before the code is checked;
 * - a TOTP code that was accepted once is refused for the rest of its life (a replayed code).
 */
export const CODE_PATHS: ReadonlySet<string> = new Set(["two-factor/verify-totp", "two-factor/verify-backup-code"]);

/** How long an accepted code stays refused: longer than the window in which the plugin accepts it (±30 s). */
const USED_CODE_MS = 3 * 60 * 1000;

export const CODE_REUSED_MESSAGE = "This code was already used. Wait for the next code from your app.";

export function codeLockedMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many wrong codes for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

const failuresKey = (userId: string) => `code-failures:${userId}`;
const usedKey = (userId: string, path: string, code: string) => `code-used:${userId}:${path}:${code}`;

export interface CodeAttempt {
  /** This code's number among the account's codes in the window (the SIGN_IN_FAILURE_LIMIT-th wrong one locks). */
  number: number;
  /** Milliseconds the account stays locked; 0 when this code may be checked. */
  lockedForMs: number;
  /** The code was accepted before (a replay): refused without being checked. */
  reused: boolean;
  /** The code was wrong. */
  failed(): Promise<void>;
  /** The code was right. */
  succeeded(): Promise<void>;
  /** The request was refused for another reason: the slot goes back. */
  release(): Promise<void>;
}

export async function beginCodeAttempt(
  counters: HitCounter,
  userId: string,
  path: string,
  code: string,
): Promise<CodeAttempt> {
  const hits = await counters.count(failuresKey(userId), SIGN_IN_FAILURE_WINDOW_MS);
  const lockedForMs = hits.count > SIGN_IN_FAILURE_LIMIT ? Math.max(1, hits.windowEndsAt - Date.now()) : 0;
  // Claimed atomically: of two requests with the same code, only the first is checked.
  const claimed = lockedForMs === 0 ? await counters.count(usedKey(userId, path, code), USED_CODE_MS) : null;
  const reused = claimed !== null && claimed.count > 1;
  const unclaim = async () => {
    if (claimed && !reused) await counters.uncount(usedKey(userId, path, code));
  };
  return {
    number: hits.count,
    lockedForMs,
    reused,
    failed: unclaim,
    succeeded: () => counters.clear(failuresKey(userId)),
    release: async () => {
      await unclaim();
      await counters.uncount(failuresKey(userId));
    },
  };
}

/** The account a pending sign-in (password right, code still to come) belongs to, from Better Auth's cookie. */
export function pendingSignIn(db: Kysely<DB>, secret: string, secure: boolean) {
  const read = signedCookieReader(secret, secure, "better-auth.two_factor");
  return async (cookieHeader: string | undefined): Promise<string | null> => {
    const identifier = read(cookieHeader);
    if (identifier === null) return null;
    const row = await db
      .selectFrom("verification")
      .select(["value", "expiresAt"])
      .where("identifier", "=", identifier)
      .executeTakeFirst();
    return row && new Date(row.expiresAt).getTime() > Date.now() ? row.value : null;
  };
}

/** The session a code or passkey just confirmed: re-confirmation counts from now (decision 0054). */
export async function markSecondFactor(db: Kysely<DB>, sessionToken: string, at = new Date()): Promise<void> {
  await db.updateTable("session").set({ secondFactorAt: at.toISOString() }).where("token", "=", sessionToken).execute();
}
