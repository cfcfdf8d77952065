import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { reportOncePerOutage } from "../outage-log.ts";
import type { Database } from "./database.ts";

interface Log {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface Listener {
  stop(): Promise<void>;
}

/** Waits before each new attempt after a lost connection: 0.5 s, doubling to at most 5 s. */
const RETRY_MS = { first: 500, most: 5000 };

/**
 * PostgreSQL LISTEN on a connection of its own that comes back after a restart, a failover or a
 * terminated backend: a lost connection is replaced, again and again until the database answers,
 * and `onNotify` is called once the new one listens (news sent meanwhile was missed). What listens
 * also polls, so nothing waits on this connection; it only makes news arrive at once.
 */
export function listenForNotifications(database: Database, channel: string, onNotify: () => void, log: Log): Listener {
  const trouble = reportOncePerOutage(
    log,
    `LISTEN ${channel} connection lost; polling until it is back`,
    `LISTEN ${channel} connection is back`,
  );
  const stopping = new AbortController();
  let client: pg.Client | null = null;

  const listenOnce = async () => {
    const next = new pg.Client({
      connectionString: database.url,
      application_name: "academy-listen",
      keepAlive: true,
      ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
    });
    const lost = new Promise<Error>((done) => {
      next.on("error", done);
      next.on("end", () => done(new Error("connection ended")));
    });
    next.on("notification", onNotify);
    client = next;
    await next.connect();
    await next.query(`listen ${channel}`);
    return lost;
  };

  const run = async () => {
    let wait = RETRY_MS.first;
    let listenedBefore = false;
    while (!stopping.signal.aborted) {
      try {
        const lost = await listenOnce();
        trouble.recovered();
        if (listenedBefore) onNotify();
        listenedBefore = true;
        wait = RETRY_MS.first;
        const error = await Promise.race([lost, stopped]);
        if (!error) return;
        trouble.failed(error);
      } catch (error) {
        trouble.failed(error);
      }
      await client?.end().catch(() => {});
      await sleep(wait, undefined, { signal: stopping.signal }).catch(() => {});
      wait = Math.min(wait * 2, RETRY_MS.most);
    }
  };
  const stopped = new Promise<null>((done) => stopping.signal.addEventListener("abort", () => done(null)));
  const running = run();

  return {
    async stop() {
      stopping.abort();
      await client?.end().catch(() => {});
      await running;
    },
  };
}
