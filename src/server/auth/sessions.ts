import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

/**
 * The account's signed-in sessions, for the profile (docs/decisions/0054). Signing one out deletes its
 * row; every instance reads the session row on every request (session-cookie.ts), so it ends at once
 * everywhere. Tokens never leave the server: sessions are named by their id.
 */
export async function listSessions(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom("session")
    .select(["id", "userAgent", "ipAddress", "createdAt", "updatedAt", "expiresAt"])
    .where("userId", "=", userId)
    .orderBy("updatedAt", "desc")
    .execute()
    .then((rows) => rows.filter((row) => new Date(row.expiresAt).getTime() > Date.now()));
}

/** "Firefox on Linux" from a User-Agent header, offline; "Unknown device" when it says too little. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const first = (pairs: [RegExp, string][]) => pairs.find(([pattern]) => pattern.test(userAgent))?.[1];
  const browser = first([
    [/Edg\//, "Edge"],
    [/OPR\/|Opera/, "Opera"],
    [/Firefox\//, "Firefox"],
    [/Chrome\/|Chromium\//, "Chrome"],
    [/Safari\//, "Safari"],
  ]);
  const system = first([
    [/Android/, "Android"],
    [/iPhone|iPad|iOS/, "iOS"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ]);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

/** Signs out one of the account's sessions; false when it is not the account's (or already gone). */
export async function endSession(db: Kysely<DB>, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom("session")
    .where("id", "=", sessionId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Signs out every session of the account but `keep` (all of them without it); the number ended. */
export async function endOtherSessions(db: Kysely<DB>, userId: string, keep?: string): Promise<number> {
  let query = db.deleteFrom("session").where("userId", "=", userId);
  if (keep) query = query.where("id", "!=", keep);
  const deleted = await query.executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
