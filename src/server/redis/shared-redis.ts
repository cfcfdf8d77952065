import { Redis } from "ioredis";

export interface RedisLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** After a failed command, Redis is left alone this long (the database stands in), then tried again. */
const PAUSE_AFTER_FAILURE_MS = 1000;
/** A command that takes longer counts as failed: a request waits no longer on a Redis that stopped answering. */
const COMMAND_TIMEOUT_MS = 2000;

export type RedisHealth = { ok: true } | { ok: false; message: string };

/**
 * The connection to the Redis in REDIS_URL (decision 0031), with what callers need to fail safe: while
 * Redis is out of reach, `attempt` runs the database's way of doing the same thing, the outage is logged
 * once, /readyz says degraded, and Redis is used again as soon as it answers.
 */
export interface SharedRedis {
  /** Commands; ioredis puts the key prefix in front of every key. */
  readonly client: Redis;
  /** Pub/sub channels carry the prefix too (ioredis adds it to keys only). */
  channel(name: string): string;
  /** Runs `viaRedis`; while Redis is away, or when the call fails, `viaDatabase` instead. */
  attempt<T>(viaRedis: (client: Redis) => Promise<T>, viaDatabase: () => Promise<T>, what: string): Promise<T>;
  /** Whether Redis answers now (a PING), for /readyz. */
  check(): Promise<RedisHealth>;
  /** A connection of its own for SUBSCRIBE, closed with this one. */
  subscriber(): Redis;
  /** Resolves once connected, or after `ms` (then the instance starts degraded and keeps trying). */
  connected(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export function connectRedis(settings: { url: string; keyPrefix: string }, log: RedisLog): SharedRedis {
  const options = {
    keyPrefix: settings.keyPrefix,
    // A request never queues behind a lost connection: commands fail at once and the database stands in.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    // Reconnects forever, at most every 2 s.
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
  };
  const client = new Redis(settings.url, options);
  const subscribers: Redis[] = [];
  let down = false;
  let lastProblem = "";
  let pausedUntil = 0;
  let closing = false;

  const wentAway = (error: unknown, what: string) => {
    lastProblem = error instanceof Error ? error.message : String(error);
    if (down || closing) return;
    down = true;
    log.warn(
      { err: error, during: what },
      "Redis is unreachable: rate limits, lockouts, mail caps and cache news go through the database until it is back",
    );
  };
  const cameBack = () => {
    if (!down) return;
    down = false;
    pausedUntil = 0;
    log.info({}, "Redis is reachable again: shared counters and cache news go through it once more");
  };
  client.on("error", (error) => wentAway(error, "connection"));
  client.on("close", () => {
    if (!closing) wentAway(new Error("connection closed"), "connection");
  });
  client.on("ready", cameBack);

  const usable = () => client.status === "ready" && Date.now() >= pausedUntil;

  return {
    client,
    channel: (name) => `${settings.keyPrefix}${name}`,
    async attempt(viaRedis, viaDatabase, what) {
      if (!usable()) return viaDatabase();
      let result: Awaited<ReturnType<typeof viaRedis>>;
      try {
        result = await viaRedis(client);
      } catch (error) {
        pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
        wentAway(error, what);
        return viaDatabase();
      }
      cameBack();
      return result;
    },
    async check() {
      if (client.status !== "ready")
        return { ok: false, message: `Redis is unreachable (${lastProblem || client.status}).` };
      try {
        await client.ping();
        cameBack();
        return { ok: true };
      } catch (error) {
        pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
        wentAway(error, "readiness check");
        return { ok: false, message: `Redis is unreachable (${lastProblem}).` };
      }
    },
    subscriber() {
      // SUBSCRIBE may be sent before the connection is up: this one queues it, and resubscribes after a reconnect.
      const sub = new Redis(settings.url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
      sub.on("error", () => {}); // reported by the command connection
      subscribers.push(sub);
      return sub;
    },
    async connected(ms) {
      if (client.status === "ready") return true;
      return new Promise((done) => {
        const timer = setTimeout(() => {
          client.off("ready", onReady);
          done(false);
        }, ms);
        const onReady = () => {
          clearTimeout(timer);
          done(true);
        };
        client.once("ready", onReady);
      });
    },
    async close() {
      closing = true;
      // QUIT where the connection is up (replies in flight arrive first); a lost one is just dropped.
      await Promise.all(
        [client, ...subscribers].map(async (c) => {
          if (c.status !== "ready") return c.disconnect();
          await Promise.race([c.quit(), new Promise((done) => setTimeout(done, 1000).unref())]).catch(() => {});
          c.disconnect();
        }),
      );
    },
  };
}
