import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { SharedRedis } from "../redis/shared-redis.ts";
import { clearHits, countHit, type Hits, uncountHit } from "./hit-counter.repository.ts";

export type { Hits } from "./hit-counter.repository.ts";

/**
 * Fixed-window counters every instance shares: rate limits, the sign-in lockout, mail caps, preview
 * limits. In Redis when REDIS_URL is set, in the database (`hitCounter`) otherwise, and in the
 * database too while Redis is out of reach (decision 0031).
 */
export interface HitCounter {
  /** Counts one hit on `key`, atomically; a window that has ended starts again at 1. */
  count(key: string, windowMs: number): Promise<Hits>;
  /** Takes back one hit counted in the current window (one that turned out not to count). */
  uncount(key: string): Promise<void>;
  /** Forgets the key's count. */
  clear(key: string): Promise<void>;
}

export function databaseHitCounter(db: Kysely<DB>): HitCounter {
  return {
    count: (key, windowMs) => countHit(db, key, windowMs),
    uncount: (key) => uncountHit(db, key),
    clear: (key) => clearHits(db, key),
  };
}

// One round trip each. INCR and DECR keep a key's expiry; the first hit of a window sets it.
const COUNT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;
const UNCOUNT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

interface CounterCommands {
  academyCountHit(key: string, windowMs: number): Promise<[number, number]>;
  academyUncountHit(key: string): Promise<number>;
}

function commands(client: Redis): CounterCommands {
  const c = client as Redis & Partial<CounterCommands>;
  if (!c.academyCountHit) {
    client.defineCommand("academyCountHit", { numberOfKeys: 1, lua: COUNT_SCRIPT });
    client.defineCommand("academyUncountHit", { numberOfKeys: 1, lua: UNCOUNT_SCRIPT });
  }
  return c as Redis & CounterCommands;
}

export function redisHitCounter(client: Redis): HitCounter {
  const run = commands(client);
  return {
    async count(key, windowMs) {
      const [count, ttl] = await run.academyCountHit(key, windowMs);
      return { count, windowEndsAt: Date.now() + ttl };
    },
    async uncount(key) {
      await run.academyUncountHit(key);
    },
    async clear(key) {
      await client.del(key);
    },
  };
}

/**
 * Redis when configured and answering, the database otherwise. Counts taken in the database during an
 * outage stay there: after it, counting starts again in Redis (at most one more window of hits).
 */
export function sharedHitCounter(db: Kysely<DB>, redis?: SharedRedis): HitCounter {
  const database = databaseHitCounter(db);
  if (!redis) return database;
  const fast = redisHitCounter(redis.client);
  return {
    count: (key, windowMs) =>
      redis.attempt(
        () => fast.count(key, windowMs),
        () => database.count(key, windowMs),
        "count",
      ),
    uncount: (key) =>
      redis.attempt(
        () => fast.uncount(key),
        () => database.uncount(key),
        "uncount",
      ),
    clear: (key) =>
      redis.attempt(
        () => fast.clear(key),
        () => database.clear(key),
        "clear",
      ),
  };
}
