import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { JobLog, JobRunner, PeriodicJob } from "./job-runner.ts";
import { claimScheduledTurn, ensureScheduledJob, recordScheduledError } from "./scheduled-job.repository.ts";

const QUEUE_POLL_MS = 1000;
/** A job taken by an instance that died is taken again after this long. */
const LOCK_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 3;

/**
 * The in-process runner (SQLite): timers in every instance, with the database deciding who runs.
 * A periodic turn goes to whoever moves `scheduledJob.nextRunAt` forward; a queued job to whoever
 * locks its row. Both are single guarded UPDATEs, so several processes on one file agree.
 */
export function createDatabaseJobRunner(db: Kysely<DB>, log: JobLog): JobRunner {
  const periodic: PeriodicJob[] = [];
  const workers = new Map<string, (data: object) => Promise<unknown>>();
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  const track = (work: Promise<unknown>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };

  const runTurn = async (job: PeriodicJob, busy: { now: boolean }) => {
    if (busy.now || stopped) return;
    busy.now = true;
    try {
      if (!(await claimScheduledTurn(db, job.name, job.intervalMs))) return;
      await job.handler();
    } catch (error) {
      log.error({ err: error, job: job.name }, "periodic job failed");
      await recordScheduledError(db, job.name, error).catch(() => {});
    } finally {
      busy.now = false;
    }
  };

  const takeQueuedJob = async (now: number) => {
    const names = [...workers.keys()];
    if (!names.length) return null;
    const due = db
      .selectFrom("queuedJob")
      .select("id")
      .where("name", "in", names)
      .where("doneAt", "is", null)
      .where("runAt", "<=", now)
      .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", now)]))
      .orderBy("id")
      .limit(1);
    return db
      .updateTable("queuedJob")
      .set((eb) => ({ lockedUntil: now + LOCK_MS, attempts: eb("attempts", "+", 1) }))
      .where("id", "in", due)
      .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", now)]))
      .where("doneAt", "is", null)
      .returningAll()
      .executeTakeFirst();
  };

  const drainQueue = async (busy: { now: boolean }) => {
    if (busy.now || stopped) return;
    busy.now = true;
    try {
      for (let job = await takeQueuedJob(Date.now()); job && !stopped; job = await takeQueuedJob(Date.now())) {
        const handler = workers.get(job.name);
        try {
          await handler?.(JSON.parse(job.data) as object);
          await db
            .updateTable("queuedJob")
            .set({ doneAt: Date.now(), lockedUntil: null })
            .where("id", "=", job.id)
            .execute();
        } catch (error) {
          log.error({ err: error, job: job.name, id: job.id }, "queued job failed");
          const giveUp = job.attempts >= MAX_ATTEMPTS;
          await db
            .updateTable("queuedJob")
            .set({
              lockedUntil: null,
              lastError: error instanceof Error ? error.message : String(error),
              ...(giveUp ? { doneAt: Date.now() } : { runAt: Date.now() + 10_000 * job.attempts }),
            })
            .where("id", "=", job.id)
            .execute();
        }
      }
    } catch (error) {
      log.error({ err: error }, "job queue poll failed");
    } finally {
      busy.now = false;
    }
  };

  return {
    every(name, intervalMs, handler) {
      periodic.push({ name, intervalMs, handler });
    },
    work(name, handler) {
      workers.set(name, handler as (data: object) => Promise<unknown>);
    },
    async send(name, data) {
      await db
        .insertInto("queuedJob")
        .values({ name, data: JSON.stringify(data), runAt: Date.now() })
        .execute();
    },
    async start() {
      const now = Date.now();
      for (const job of periodic) {
        await ensureScheduledJob(db, job.name, now);
        const busy = { now: false };
        const tick = () => track(runTurn(job, busy));
        tick();
        const timer = setInterval(tick, Math.min(job.intervalMs, 1000));
        timer.unref();
        timers.push(timer);
      }
      if (workers.size) {
        const busy = { now: false };
        const timer = setInterval(() => track(drainQueue(busy)), QUEUE_POLL_MS);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
