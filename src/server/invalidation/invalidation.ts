import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../db/database.ts";
import { type Listener, listenForNotifications } from "../db/listen.ts";
import { countHit } from "../limits/hit-counter.repository.ts";
import type { SharedRedis } from "../redis/shared-redis.ts";

/**
 * Cache news across instances (decision 0031). A cache that must not outlive a change elsewhere
 * subscribes to a topic and drops what it holds when told; whoever changes the thing publishes it:
 *
 * ```ts
 * const stop = app.deps.invalidation.subscribe("course-templates", () => templates.clear());
 * await app.deps.invalidation.publish("course-templates"); // every instance, this one before it returns
 * ```
 *
 * A message says only "what this topic names may have changed": subscribers re-read. Delivery:
 * - with REDIS_URL, Redis pub/sub (at once);
 * - without it, or while Redis is out of reach, the database: the topic's version in `hitCounter`
 *   (key `invalidate:<topic>`) goes up by one, every instance compares versions once a second, and on
 *   PostgreSQL a NOTIFY makes them look at once;
 * - after this instance lost its Redis subscription (messages may have been missed), every topic
 *   fires once when it is back.
 * The version check runs on Redis too, so news published through the database by an instance cut
 * off from Redis still arrives. Content imports are told by `onContentImported` (content-import.ts).
 */
export interface Invalidation {
  publish(topic: string): Promise<void>;
  /** Calls `listener` whenever any instance publishes `topic`; returns the unsubscribe. */
  subscribe(topic: string, listener: () => void): () => void;
  stop(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const POLL_MS = 1000;
const CHANNEL = "invalidate";
/** Versions never expire (the prune job removes ended windows only). */
const FOREVER_MS = 100 * 365 * 24 * 60 * 60 * 1000;
const PG_CHANNEL = "academy_invalidate";
const TOPIC = /^[\w.:-]{1,100}$/;

const versionKey = (topic: string) => `invalidate:${topic}`;

export function createInvalidation(database: Database, redis: SharedRedis | undefined, log: Log): Invalidation {
  const instance = randomUUID();
  const listeners = new Map<string, Set<() => void>>();
  const versions = new Map<string, number>();
  let stopped = false;

  const fire = (topic: string) => {
    for (const listener of listeners.get(topic) ?? []) {
      try {
        listener();
      } catch (error) {
        log.warn({ err: error, topic }, "cache invalidation listener failed");
      }
    }
  };
  const fireAll = () => {
    for (const topic of listeners.keys()) fire(topic);
  };

  // The database's versions: read once a second (and at once on a PostgreSQL NOTIFY).
  let polling = false;
  const poll = async () => {
    if (polling || stopped || listeners.size === 0) return;
    polling = true;
    try {
      const topics = [...listeners.keys()];
      const rows = await database.db
        .selectFrom("hitCounter")
        .select(["key", "count"])
        .where("key", "in", topics.map(versionKey))
        .execute();
      const now = new Map(rows.map((r) => [r.key, Number(r.count)]));
      for (const topic of topics) {
        const version = now.get(versionKey(topic)) ?? 0;
        const known = versions.get(topic);
        versions.set(topic, version);
        if (known !== undefined && version !== known) fire(topic);
      }
    } catch (error) {
      log.warn({ err: error }, "cache invalidation check failed");
    } finally {
      polling = false;
    }
  };
  let timer: NodeJS.Timeout | null = null;
  let listener: Listener | null = null;
  let subscriber: ReturnType<SharedRedis["subscriber"]> | null = null;

  const startListening = () => {
    timer = setInterval(() => void poll(), POLL_MS);
    timer.unref();
    if (redis) {
      const channel = redis.channel(CHANNEL);
      const sub = redis.subscriber();
      subscriber = sub;
      // After a lost (or never made) connection, what was published meanwhile never reached us.
      let missed = false;
      sub.on("close", () => {
        missed = true;
      });
      sub.on("ready", () => {
        if (missed) fireAll();
        missed = false;
      });
      sub.on("message", (_channel: string, message: string) => {
        const [from, topic] = message.split("\n");
        if (from !== instance && topic) fire(topic);
      });
      sub.subscribe(channel).catch((error: unknown) => log.warn({ err: error }, "cache news: SUBSCRIBE failed"));
    } else if (database.engine === "postgres") {
      listener = listenForNotifications(database, PG_CHANNEL, () => void poll(), log);
    }
  };

  const publishViaDatabase = async (topic: string) => {
    await countHit(database.db, versionKey(topic), FOREVER_MS);
    if (database.engine === "postgres") await sql`select pg_notify(${PG_CHANNEL}, ${topic})`.execute(database.db);
  };

  return {
    async publish(topic) {
      if (!TOPIC.test(topic)) throw new Error(`invalid invalidation topic: ${topic}`);
      fire(topic);
      if (redis) {
        await redis.attempt(
          async (client) => {
            await client.publish(redis.channel(CHANNEL), `${instance}\n${topic}`);
          },
          () => publishViaDatabase(topic),
          "publish cache news",
        );
      } else {
        await publishViaDatabase(topic);
      }
    },
    subscribe(topic, fn) {
      if (!TOPIC.test(topic)) throw new Error(`invalid invalidation topic: ${topic}`);
      const first = listeners.size === 0;
      const set = listeners.get(topic) ?? new Set();
      set.add(fn);
      listeners.set(topic, set);
      if (first && !stopped) startListening();
      void poll();
      return () => {
        set.delete(fn);
        if (set.size === 0) {
          listeners.delete(topic);
          versions.delete(topic);
        }
      };
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await listener?.stop();
      subscriber?.disconnect();
    },
  };
}
