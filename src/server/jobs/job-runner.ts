import type { Database } from "../db/database.ts";
import { createDatabaseJobRunner } from "./database-job-runner.ts";
import { createPgBossJobRunner } from "./pg-boss-job-runner.ts";

export interface JobLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Background work that runs once across every instance sharing the database, and survives restarts.
 * Register with `every` before `start`.
 */
export interface JobRunner {
  /** Runs `handler` about every `intervalMs`, in one instance each turn. */
  every(name: string, intervalMs: number, handler: () => Promise<unknown>): void;
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
}

/** pg-boss on PostgreSQL; on SQLite, a runner that coordinates through tables of our own. */
export function createJobRunner(database: Database, log: JobLog): JobRunner {
  return database.engine === "postgres"
    ? createPgBossJobRunner(database, log)
    : createDatabaseJobRunner(database.db, log);
}

export interface PeriodicJob {
  name: string;
  intervalMs: number;
  handler: () => Promise<unknown>;
}
