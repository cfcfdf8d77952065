import { type Kysely, sql, type Transaction } from "kysely";
import type { DB } from "./schema.ts";

type Work<T> = (trx: Transaction<DB>) => Promise<T>;
interface Job {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Most writes one SQLite commit carries; the rest wait for the next one. */
const MAX_BATCH = 256;

/**
 * Group commit for SQLite. With `synchronous=FULL` every commit waits for an fsync, and
 * better-sqlite3 waits on the event loop, so one commit per request caps writes at one per fsync.
 * Writes that arrive together (in the same turn of the event loop) run in one transaction, each in
 * its own savepoint, and share one commit and one fsync. Each caller's promise settles only after
 * that commit, so nobody is answered before their write is durable; a write that throws rolls back
 * to its savepoint and fails alone.
 */
class GroupCommitter {
  private queue: Job[] = [];
  private scheduled = false;
  private running = false;
  /** Commits made so far: fewer than writes when writes arrive together. */
  commits = 0;

  constructor(private readonly db: Kysely<DB>) {}

  submit<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    // After the poll phase: every request whose bytes arrived in this turn has queued its write.
    setImmediate(() => void this.flush());
  }

  private async flush() {
    this.scheduled = false;
    this.running = true;
    const batch = this.queue.splice(0, MAX_BATCH);
    // Each job's answer, given only once the whole batch has committed.
    const settle: (() => void)[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const [only] = batch;
        if (only && batch.length === 1) {
          // Alone in its batch: the transaction itself is the savepoint.
          const value = await only.work(trx);
          settle.push(() => only.resolve(value));
          return;
        }
        for (const job of batch) {
          await sql`savepoint grouped_write`.execute(trx);
          try {
            const value = await job.work(trx);
            await sql`release grouped_write`.execute(trx);
            settle.push(() => job.resolve(value));
          } catch (error) {
            await sql`rollback to grouped_write`.execute(trx);
            await sql`release grouped_write`.execute(trx);
            settle.push(() => job.reject(error));
          }
        }
      });
      this.commits++;
      for (const answer of settle) answer();
    } catch (error) {
      // The commit itself failed (or a lone write threw): nothing of this batch is stored.
      for (const job of batch) job.reject(error);
    } finally {
      this.running = false;
      if (this.queue.length) this.schedule();
    }
  }
}

const committers = new WeakMap<Kysely<DB>, GroupCommitter>();

/** Turns on group commit for this SQLite database (see `writeTransaction`). */
export function enableGroupCommit(db: Kysely<DB>) {
  committers.set(db, new GroupCommitter(db));
}

/**
 * Runs writes that belong together in one transaction and resolves once they are durable. On
 * SQLite, writes arriving together share a commit (group commit); on PostgreSQL, whose server
 * groups WAL flushes itself, it is a plain transaction. The work must use only `trx`, never `db`.
 */
export function writeTransaction<T>(db: Kysely<DB>, work: Work<T>): Promise<T> {
  const committer = committers.get(db);
  return committer ? committer.submit(work) : db.transaction().execute(work);
}

/**
 * One write statement, durable when it resolves: on SQLite it joins the group commit (its own
 * savepoint, a shared fsync); on PostgreSQL it runs on its own, autocommitted, with no BEGIN and
 * COMMIT round trips around it. For writes that are a single statement; `work` uses only the
 * handle it is given.
 */
export function durableWrite<T>(db: Kysely<DB>, work: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const committer = committers.get(db);
  return committer ? committer.submit(work) : work(db);
}

/** Group commits made on this database so far (undefined when it does not group commits). */
export function groupCommitCount(db: Kysely<DB>): number | undefined {
  return committers.get(db)?.commits;
}
