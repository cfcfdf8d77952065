import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import RedisStore from "@fastify/rate-limit/store/RedisStore.js";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { SharedRedis } from "../redis/shared-redis.ts";
import { countHit } from "./hit-counter.repository.ts";

type Incr = FastifyRateLimitStore["incr"];
type Result = { current: number; ttl: number };

/** The merged limit settings a child store gets at run time (the types say route options). */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  groupId?: string;
}

class DatabaseRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly prefix = "route:",
  ) {}

  incr(key: string, callback: Parameters<Incr>[1], timeWindow: number) {
    countHit(this.db, this.prefix + key, timeWindow).then(
      ({ count, windowEndsAt }) => callback(null, { current: count, ttl: Math.max(0, windowEndsAt - Date.now()) }),
      (error: Error) => callback(error),
    );
  }

  child(routeOptions: unknown) {
    const options = routeOptions as ChildOptions;
    const route =
      options.groupId ?? `${[options.routeInfo?.method ?? ""].flat().join(",")} ${options.routeInfo?.url ?? ""}`;
    return new DatabaseRateLimitStore(this.db, `route:${route}:`);
  }
}

/** @fastify/rate-limit's Redis store, with the database store standing in while Redis is out of reach. */
class SharedRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly redis: SharedRedis,
    private readonly fast: FastifyRateLimitStore,
    private readonly database: FastifyRateLimitStore,
  ) {}

  incr(key: string, callback: Parameters<Incr>[1], timeWindow: number, max: number) {
    const viaRedis = () =>
      new Promise<Result>((done, fail) =>
        this.fast.incr(key, (error, result) => (error || !result ? fail(error) : done(result)), timeWindow, max),
      );
    const viaDatabase = () =>
      new Promise<Result>((done, fail) =>
        this.database.incr(key, (error, result) => (error || !result ? fail(error) : done(result)), timeWindow, max),
      );
    this.redis.attempt(viaRedis, viaDatabase, "rate limit").then(
      (result) => callback(null, result),
      (error: Error) => callback(error),
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]) {
    return new SharedRateLimitStore(this.redis, this.fast.child(routeOptions), this.database.child(routeOptions));
  }
}

/**
 * The per-route limits' counters, shared by every app instance: in Redis when REDIS_URL is set (and
 * in the database while it is away), in the database (`hitCounter`) otherwise. Both count a fixed
 * window per route and client address.
 */
export function rateLimitStore(db: Kysely<DB>, redis?: SharedRedis): FastifyRateLimitStoreCtor {
  const database = new DatabaseRateLimitStore(db);
  const root = redis
    ? new SharedRateLimitStore(redis, new RedisStore(false, false, redis.client, "route:"), database)
    : database;
  // The plugin constructs the store from its options; every instance of it is this one.
  const sameStore = () => root;
  return function (this: unknown) {
    return sameStore();
  } as unknown as FastifyRateLimitStoreCtor;
}
