import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { countHit } from "../limits/hit-counter.repository.ts";

const MAILS_PER_HOUR = 3;

/** Counts one mail of this kind to one account; true once more than 3 went out this hour (then skip it). */
export async function mailCapReached(db: Kysely<DB>, key: string, now = Date.now()): Promise<boolean> {
  const hits = await countHit(db, key, 60 * 60 * 1000, now);
  return hits.count > MAILS_PER_HOUR;
}
