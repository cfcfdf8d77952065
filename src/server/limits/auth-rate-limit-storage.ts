import type { BetterAuthOptions } from "better-auth";
import type { HitCounter } from "./hit-counter.ts";

type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions["rateLimit"]>["customStorage"]>;

/**
 * Better Auth's per-address limits (sign-in, sign-up, reset) kept in the shared counters when Redis
 * is configured: one atomic count per request, a fixed window of `rule.window` seconds.
 */
export function authRateLimitStorage(counters: HitCounter): RateLimitStorage {
  return {
    async consume(key, rule) {
      const hits = await counters.count(`auth:${key}`, rule.window * 1000);
      if (hits.count <= rule.max) return { allowed: true, retryAfter: null };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((hits.windowEndsAt - Date.now()) / 1000)) };
    },
  };
}
