import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { JobLog, JobRunner, PeriodicJob } from "./job-runner.ts";
import { claimScheduledTurn, ensureScheduledJob, recordScheduledError } from "./scheduled-job.repository.ts";

/**
 * The in-process runner (SQLite): timers in every instance, with the database deciding who runs.
 * A periodic turn goes to whoever moves `scheduledJob.nextRunAt` forward, a single guarded UPDATE, so
 * several processes on one file agree.
 */
export function createDatabaseJobRunner(db: Kysely<DB>, log: JobLog): JobRunner {
  const periodic: PeriodicJob[] = [];
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

  return {
    every(name, intervalMs, handler) {
      periodic.push({ name, intervalMs, handler });
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
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
