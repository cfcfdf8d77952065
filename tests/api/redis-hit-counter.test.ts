import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HitCounter, redisHitCounter } from "#server/limits/hit-counter.ts";
import { inspectRedis, requireRedisOrSkip, TEST_REDIS_URL, uniqueRedisPrefix } from "../setup/test-redis.ts";

/**
 * A Redis counter's window ends: the key carries the window as its expiry, Redis removes it when the
 * window is over, and the next hit starts a new window at 1. A counter that never expired would keep a
 * locked-out account locked for good.
 */
const hasRedis = await requireRedisOrSkip("redis-hit-counter.test.ts");
const prefix = uniqueRedisPrefix();
let client: Redis;
let counter: HitCounter;
const look = inspectRedis(prefix);

beforeAll(() => {
  client = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
  counter = redisHitCounter(client);
});
afterAll(async () => {
  await look.clear();
  client?.disconnect();
});

/** Resolves once Redis has removed the key (its expiry passed), checking after each of Redis's own answers. */
async function keyExpired(key: string) {
  while ((await look.client.exists(prefix + key)) === 1) await look.client.ping();
}

describe.runIf(hasRedis)("a Redis hit counter", () => {
  it("counts within the window, expires the key with the window, then starts again at 1", async () => {
    const windowMs = 300;
    const first = await counter.count("sign-in:ada", windowMs);
    const second = await counter.count("sign-in:ada", windowMs);
    expect([first.count, second.count]).toEqual([1, 2]);
    // The window is the key's expiry in Redis, set once by the first hit (a later hit does not extend it).
    const ttl = await look.client.pttl(`${prefix}sign-in:ada`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(windowMs);
    expect(second.windowEndsAt).toBeLessThanOrEqual(first.windowEndsAt + 50);

    await keyExpired("sign-in:ada");
    const next = await counter.count("sign-in:ada", windowMs);
    expect(next.count).toBe(1);
    expect(await look.client.pttl(`${prefix}sign-in:ada`)).toBeGreaterThan(0);
  });

  it("keeps the window's expiry when a hit is taken back", async () => {
    await counter.count("mail:ada", 60_000);
    await counter.count("mail:ada", 60_000);
    await counter.uncount("mail:ada");
    expect(await look.get("mail:ada")).toBe("1");
    expect(await look.client.pttl(`${prefix}mail:ada`)).toBeGreaterThan(0);
  });
});
