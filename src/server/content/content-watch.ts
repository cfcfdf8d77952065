import pg from "pg";
import type { Database } from "../db/database.ts";
import { CONTENT_CHANNEL, contentChanged, latestContentVersion } from "./content-import.ts";

const POLL_MS = 1000;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Tells this process's caches when any process imported content: a cheap version check every second
 * (every engine, several processes on one SQLite file too) and, on PostgreSQL, LISTEN on a
 * connection of its own so the news arrives at once.
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

  let listener: pg.Client | null = null;
  if (database.engine === "postgres") {
    listener = new pg.Client({
      connectionString: database.url,
      ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
    });
    listener.on("notification", () => void check());
    listener.on("error", (error) => log.warn({ err: error }, "content LISTEN connection lost; polling only"));
    listener
      .connect()
      .then(() => listener?.query(`listen ${CONTENT_CHANNEL}`))
      .catch((error) => log.warn({ err: error }, "content LISTEN failed; polling only"));
  }

  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await listener?.end().catch(() => {});
    },
  };
}
