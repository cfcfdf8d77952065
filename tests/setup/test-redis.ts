import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** The machine's Redis (CI has one); TEST_REDIS_URL points elsewhere. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Why Redis tests cannot run here, or null when Redis answers. A fresh machine has no Redis: those
 * tests are skipped with this reason; in CI (CI=true), where Redis is installed, they run and fail.
 */
export async function redisUnavailableReason(): Promise<string | null> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return `no Redis at ${TEST_REDIS_URL} (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    probe.disconnect();
  }
}

/** Skips (with the reason printed) when Redis is absent, except in CI, where it must be there. */
export async function requireRedisOrSkip(file: string): Promise<boolean> {
  const reason = await redisUnavailableReason();
  if (!reason) return true;
  if (process.env.CI) throw new Error(`${file}: ${reason}; CI runs the Redis tests (.ci/run starts Redis)`);
  console.warn(`${file}: skipping the Redis tests: ${reason}`);
  return false;
}

/** A key prefix of this test's own, so suites running side by side on one Redis never meet. */
export function uniqueRedisPrefix(): string {
  return `test:${randomBytes(6).toString("hex")}:`;
}

/** A plain connection (no prefix) for looking at what a test stored; `clear` removes that test's keys. */
export function inspectRedis(prefix: string) {
  const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  return {
    client,
    /** The test's keys, without their prefix. */
    async keys(): Promise<string[]> {
      const found: string[] = [];
      let cursor = "0";
      do {
        const [next, batch] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
        cursor = next;
        found.push(...batch.map((k) => k.slice(prefix.length)));
      } while (cursor !== "0");
      return found;
    },
    async get(key: string) {
      return client.get(prefix + key);
    },
    async clear() {
      const keys = await this.keys();
      if (keys.length) await client.del(...keys.map((k) => prefix + k));
      client.disconnect();
    },
  };
}
