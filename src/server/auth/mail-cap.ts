import type { HitCounter } from "../limits/hit-counter.ts";

const MAILS_PER_HOUR = 3;

/** Counts one mail of this kind to one account; true once more than 3 went out this hour (then skip it). */
export async function mailCapReached(counters: HitCounter, key: string): Promise<boolean> {
  const hits = await counters.count(key, 60 * 60 * 1000);
  return hits.count > MAILS_PER_HOUR;
}
