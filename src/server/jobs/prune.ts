import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { deleteEndedWindows } from "../limits/hit-counter.repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Better Auth's rate-limit rows count within a minute; a day without requests means the row is spent. */
const RATE_LIMIT_ROWS_KEPT_MS = DAY_MS;

export interface Pruned {
  hitCounters: number;
  rateLimits: number;
  verifications: number;
  sessions: number;
  oneOffJobs: number;
}
/** A finished one-off job stays this long, for the record of what ran (and why one failed). */
export const ONE_OFF_JOBS_KEPT_MS = 30 * DAY_MS;

/**
 * Rows that only grow unless something removes them: ended rate-limit windows (ours and Better Auth's),
 * expired verification and reset tokens, expired sessions, and one-off jobs finished a month ago. Run hourly by
 * one instance; each is one indexed-or-small DELETE.
 */
export async function pruneExpiredRows(db: Kysely<DB>, now = Date.now()): Promise<Pruned> {
  const nowIso = new Date(now).toISOString();
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return {
    hitCounters: await deleteEndedWindows(db, now),
    rateLimits: count(
      await db
        .deleteFrom("rateLimit")
        .where("lastRequest", "<", now - RATE_LIMIT_ROWS_KEPT_MS)
        .executeTakeFirst(),
    ),
    verifications: count(await db.deleteFrom("verification").where("expiresAt", "<", nowIso).executeTakeFirst()),
    sessions: count(await db.deleteFrom("session").where("expiresAt", "<", nowIso).executeTakeFirst()),
    oneOffJobs: count(
      await db
        .deleteFrom("oneOffJob")
        .where("status", "in", ["done", "failed"])
        .where("finishedAt", "<", new Date(now - ONE_OFF_JOBS_KEPT_MS).toISOString())
        .executeTakeFirst(),
    ),
  };
}
