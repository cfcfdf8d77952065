import { randomUUID } from "node:crypto";
import type { Kysely, Updateable } from "kysely";
import type { z } from "zod";
import type { DB, OneOffJobTable } from "../db/schema.ts";

/**
 * One-off jobs (docs/decisions/0059): work that one event causes, as a typed definition
 * (`defineJob`), a row written in the event's own transaction (`trigger`), and a handler registered
 * once per process (`handle`). The `one-off-jobs` turn runs each row once across every instance
 * (claimed with a guarded UPDATE), counts attempts, backs off, and moves a row that keeps failing to
 * "failed" with the reason. A process that dies mid-job leaves a claim that runs out; the job runs
 * again, so a handler must be safe to repeat.
 */
export interface JobDefinition<Payload> {
  readonly name: string;
  readonly payload: z.ZodType<Payload>;
  /** Attempts before the row is "failed". */
  readonly maxAttempts: number;
}

export function defineJob<Schema extends z.ZodType>(definition: {
  name: string;
  payload: Schema;
  maxAttempts?: number;
}): JobDefinition<z.output<Schema>> {
  return { maxAttempts: 8, ...definition } as JobDefinition<z.output<Schema>>;
}

/** Wait after the first failed attempt; it doubles with each later one (30 s, 1, 2, 4 ... minutes). */
export const ONE_OFF_BACKOFF_BASE_MS = 30_000;
/** A claim older than this is taken to have died with its process; the job runs again. */
export const ONE_OFF_CLAIM_MS = 5 * 60_000;
/** Rows looked at per page; a turn pages on while rows are due (up to ONE_OFF_TURN_MS). */
export const ONE_OFF_PAGE = 50;
const ONE_OFF_TURN_MS = 20_000;

/**
 * Queues the job inside the caller's transaction (or on its own, with the database):
 * `await trigger(trx, removeStoredFiles, { keys })`. The payload is checked against the definition
 * here, so a wrong one fails the caller's transaction, not a later turn. Returns false when a job with
 * the same key was already queued.
 */
export async function trigger<Payload>(
  db: Kysely<DB>,
  job: JobDefinition<Payload>,
  payload: Payload,
  options: { key?: string; delayMs?: number; now?: Date } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const checked = job.payload.parse(payload);
  const inserted = await db
    .insertInto("oneOffJob")
    .values({
      id: randomUUID(),
      name: job.name,
      key: options.key === undefined ? null : `${job.name}:${options.key}`,
      payload: JSON.stringify(checked),
      status: "queued",
      runAt: new Date(now.getTime() + (options.delayMs ?? 0)).toISOString(),
      lastError: null,
      createdAt: now.toISOString(),
      finishedAt: null,
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface OneOffTurn {
  done: number;
  retrying: number;
  failed: number;
}

export interface OneOffJobs {
  /** The handler this process runs for the definition's rows; rows of names it has no handler for wait. */
  handle<Payload>(job: JobDefinition<Payload>, handler: (payload: Payload) => Promise<void>): void;
  /** One turn: pages through the due rows (queued and due, or claimed by a process that died). */
  runDue(now?: number): Promise<OneOffTurn>;
}

interface Registered {
  definition: JobDefinition<unknown>;
  handler: (payload: unknown) => Promise<void>;
}

export function createOneOffJobs(db: Kysely<DB>, log: { warn(obj: object, msg: string): void }): OneOffJobs {
  const handlers = new Map<string, Registered>();

  async function runOne(id: string, now: number): Promise<keyof OneOffTurn | null> {
    const nowIso = new Date(now).toISOString();
    const claimed = await db
      .updateTable("oneOffJob")
      .set({ status: "running", runAt: new Date(now + ONE_OFF_CLAIM_MS).toISOString() })
      .where("id", "=", id)
      .where("status", "in", ["queued", "running"])
      .where("runAt", "<=", nowIso)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return null;
    const row = claimed as OneOffJobTable & { attempts: number };
    const registered = handlers.get(row.name);
    const attempts = row.attempts + 1;
    try {
      if (!registered) throw new Error(`No handler for job "${row.name}".`);
      const parsed = registered.definition.payload.safeParse(JSON.parse(row.payload));
      if (!parsed.success) {
        await settle(id, { status: "failed", attempts, lastError: `Payload refused: ${parsed.error.message}` });
        return "failed";
      }
      await registered.handler(parsed.data);
      await settle(id, { status: "done", attempts, lastError: null, finishedAt: new Date().toISOString() });
      return "done";
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (attempts >= (registered?.definition.maxAttempts ?? 1)) {
        await settle(id, { status: "failed", attempts, lastError: reason, finishedAt: new Date().toISOString() });
        log.warn({ err: error, jobId: id, job: row.name, attempts }, "one-off job failed");
        return "failed";
      }
      const wait = ONE_OFF_BACKOFF_BASE_MS * 2 ** (attempts - 1);
      await settle(id, { status: "queued", attempts, lastError: reason, runAt: new Date(now + wait).toISOString() });
      log.warn({ err: error, jobId: id, job: row.name, attempts }, "one-off job did not finish; will retry");
      return "retrying";
    }
  }

  /** Ends a claimed row's attempt, only while it is still claimed. */
  async function settle(id: string, set: Updateable<OneOffJobTable>) {
    await db.updateTable("oneOffJob").set(set).where("id", "=", id).where("status", "=", "running").execute();
  }

  return {
    handle(job, handler) {
      handlers.set(job.name, { definition: job as JobDefinition<unknown>, handler: handler as Registered["handler"] });
    },
    async runDue(now = Date.now()) {
      const turn: OneOffTurn = { done: 0, retrying: 0, failed: 0 };
      const names = [...handlers.keys()];
      if (names.length === 0) return turn;
      const started = Date.now();
      const nowIso = new Date(now).toISOString();
      for (;;) {
        const due = await db
          .selectFrom("oneOffJob")
          .select("id")
          .where("status", "in", ["queued", "running"])
          .where("runAt", "<=", nowIso)
          .where("name", "in", names)
          .orderBy("runAt")
          .orderBy("id")
          .limit(ONE_OFF_PAGE)
          .execute();
        for (const { id } of due) {
          const outcome = await runOne(id, now);
          if (outcome) turn[outcome]++;
        }
        if (due.length < ONE_OFF_PAGE || Date.now() - started > ONE_OFF_TURN_MS) return turn;
      }
    },
  };
}
