import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { countHit } from "./hit-counter.repository.ts";

/** @fastify/rate-limit counters kept in the database, so every app instance counts together. */
export function databaseRateLimitStore(db: Kysely<DB>): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = "route:",
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      countHit(db, this.prefix + key, timeWindow).then(
        ({ count, windowEndsAt }) => callback(null, { current: count, ttl: Math.max(0, windowEndsAt - Date.now()) }),
        (error: Error) => callback(error),
      );
    }

    // The types say route options; at run time this gets the merged limit settings with `routeInfo`.
    child(routeOptions: unknown) {
      const options = routeOptions as { routeInfo?: { method?: string | string[]; url?: string }; groupId?: string };
      const route =
        options.groupId ?? `${[options.routeInfo?.method ?? ""].flat().join(",")} ${options.routeInfo?.url ?? ""}`;
      return new DatabaseRateLimitStore(routeOptions, `route:${route}:`);
    }
  }
  return DatabaseRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
