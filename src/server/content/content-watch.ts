import type { Database } from "../db/database.ts";
import { type Listener, listenForNotifications } from "../db/listen.ts";
import { CONTENT_CHANNEL, contentChanged, latestContentVersion } from "./content-import.ts";

const POLL_MS = 1000;

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Tells this process's caches when any process imported content: a cheap version check every second
 * (every engine, several processes on one SQLite file too) and, on PostgreSQL, LISTEN on a
 * connection of its own so the news arrives at once (replaced when it is lost: db/listen.ts).
 */
export function watchContentVersion(database: Database, log: Log): { stop: () => Promise<void> } {
  let known: number | null | undefined;
  let stopped = false;
  let checking = false;

  const check = async () => {
    if (checking || stopped) return;
    checking = true;
    try {
      const version = await latestContentVersion(database.db);
      if (known !== undefined && version !== known) contentChanged();
      known = version;
    } catch (error) {
      log.warn({ err: error }, "content version check failed");
    } finally {
      checking = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), POLL_MS);
  timer.unref();

  const listener: Listener | null =
    database.engine === "postgres" ? listenForNotifications(database, CONTENT_CHANNEL, () => void check(), log) : null;

  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await listener?.stop();
    },
  };
}
