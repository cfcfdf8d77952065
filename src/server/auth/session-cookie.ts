import { createHmac, timingSafeEqual } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../db/fast-paths.ts";
import type { DB } from "../db/schema.ts";

const COOKIE = "better-auth.session_token";

/** Session and user in one indexed read (session.token is unique). */
export const selectSessionUser = (db: Kysely<DB>, token: string) =>
  db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select([
      "user.id",
      "user.email",
      "user.emailVerified",
      "user.firstName",
      "user.lastName",
      "user.nameOrder",
      "user.role",
      "user.twoFactorEnabled",
      "session.expiresAt",
      "session.id as sessionId",
      "session.secondFactorAt",
      // A passkey counts as a second factor (decision 0054): true or 1 when the account has one.
      sql<boolean | number>`exists (select 1 from passkey where passkey."userId" = "user".id)`.as("hasPasskey"),
    ])
    .where("session.token", "=", token)
    // A session of an erased account opens nothing, whichever instance reads it (decision 0051).
    .where("user.erasedAt", "is", null);

/** The row of a session and its user, as `selectSessionUser` reads it. */
export type SessionUserRow = Awaited<ReturnType<ReturnType<typeof selectSessionUser>["executeTakeFirstOrThrow"]>>;

/** Compiled once per database. */
const sessionUser = preparedQuery(selectSessionUser, 1);

/** The session's user while the session lasts, else null. */
export function liveSession(row: SessionUserRow | undefined): SessionUserRow | null {
  return row && new Date(row.expiresAt).getTime() > Date.now() ? row : null;
}

/** The first cookie of that name, without surrounding double quotes (as Better Auth reads it). */
function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}

/**
 * The signature exactly as Better Auth writes and accepts it: standard base64 of the 32-byte HMAC,
 * padded (44 characters ending in '='). Node's base64 decoder would also take base64url, missing
 * padding or trailing junk, which Better Auth refuses; the two must accept the same cookies.
 */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Resolves Better Auth's signed session cookie with one query and a synchronous HMAC check.
 * It reads the same cookie (`token.base64(HMAC-SHA256(secret, token))`) and the same session
 * rows as Better Auth, so signing out, password resets and expiry end access here too; it exists
 * because Better Auth's own lookup costs about 0.8 ms per request (docs/decisions/0010).
 */
export function createSessionLookup(db: Kysely<DB>, secret: string, secure: boolean) {
  const token = verifiedToken(secret, secure);
  return Object.assign(
    async (cookieHeader: string | undefined) => {
      const t = token(cookieHeader);
      return t === null ? null : liveSession((await sessionUser(db, t))[0]);
    },
    {
      /** The session token of a cookie whose signature checks out (no database read), else null. */
      token,
    },
  );
}

/** The value of a cookie Better Auth signed (`value.signature`), checked; null when absent or forged. */
export function signedCookieReader(secret: string, secure: boolean, cookie: string) {
  return verifiedToken(secret, secure, cookie);
}

function verifiedToken(secret: string, secure: boolean, cookie = COOKIE) {
  const name = secure ? `__Secure-${cookie}` : cookie;
  // Cookie values whose signature checked out, and their token: a signature is valid or not for good
  // (same secret, same token), so the HMAC runs once per cookie. The session row is still read on
  // every request, so signing out, a reset or a revocation ends access at once.
  const verified = new Map<string, string>();
  return (cookieHeader: string | undefined): string | null => {
    if (!cookieHeader) return null;
    const raw = readCookie(cookieHeader, name);
    if (!raw) return null;
    const known = verified.get(raw);
    if (known !== undefined) return known;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return null;
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    if (!SIGNATURE.test(signature)) return null;
    const given = Buffer.from(signature, "base64");
    const expected = createHmac("sha256", secret).update(token).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (verified.size >= VERIFIED_KEPT) verified.clear();
    verified.set(raw, token);
    return token;
  };
}

/** Signed cookies remembered at most (a few MB); past that the memory starts afresh. */
const VERIFIED_KEPT = 20_000;
