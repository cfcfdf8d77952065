import PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import type { JobLog, JobRunner, PeriodicJob } from "./job-runner.ts";
import { recordScheduledError, recordScheduledRun } from "./scheduled-job.repository.ts";

/**
 * pg-boss (PostgreSQL): jobs are rows in its own schema, taken with SKIP LOCKED. A periodic job is
 * sent by every instance each interval as a singleton of that time slot, so pg-boss keeps one job per
 * slot and one instance runs it. pg-boss's cron is minute-grained; the sandbox settles every second.
 */
export function createPgBossJobRunner(database: Database, log: JobLog): JobRunner {
  const boss = new PgBoss({
    connectionString: database.url,
    // Tests give each file a schema of its own; pg-boss then gets one beside it.
    schema: database.schema ? `${database.schema}_jobs` : "pgboss",
    max: 4,
    schedule: false,
    application_name: "academy-jobs",
    // The sandbox settle alone queues a job a second: finished jobs move to the archive after an hour
    // and leave it after a day, so pg-boss's tables stay small.
    archiveCompletedAfterSeconds: 60 * 60,
    archiveFailedAfterSeconds: 24 * 60 * 60,
    deleteAfterHours: 24,
  });
  boss.on("error", (error) => log.error({ err: error }, "job queue error"));
  const periodic: PeriodicJob[] = [];
  const created = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  let started = false;

  // Instances starting together create the same queue at once, and PostgreSQL may pick one of them
  // as a deadlock victim: whoever loses finds the queue made by the other, or tries again.
  const ensureQueue = async (name: string) => {
    for (let attempt = 1; !created.has(name); attempt++) {
      try {
        if (!(await boss.getQueue(name))) await boss.createQueue(name);
        created.add(name);
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((done) => setTimeout(done, 50 * attempt));
      }
    }
  };

  const sendTurn = (job: PeriodicJob) =>
    boss
      .send(
        job.name,
        {},
        {
          singletonKey: job.name,
          singletonSeconds: Math.max(1, Math.round(job.intervalMs / 1000)),
          retryLimit: 0,
        },
      )
      .catch((error) => log.error({ err: error, job: job.name }, "could not queue periodic job"));

  return {
    every(name, intervalMs, handler) {
      periodic.push({ name, intervalMs, handler });
    },
    async start() {
      await boss.start();
      started = true;
      for (const job of periodic) {
        await ensureQueue(job.name);
        // This start's turn is queued before the worker's first fetch, which is immediate.
        await sendTurn(job);
        const poll = Math.min(Math.max(job.intervalMs / 2000, 0.5), 5);
        await boss.work(job.name, { pollingIntervalSeconds: poll }, async () => {
          try {
            await recordScheduledRun(database.db, job.name, job.intervalMs);
            await job.handler();
          } catch (error) {
            log.error({ err: error, job: job.name }, "periodic job failed");
            await recordScheduledError(database.db, job.name, error).catch(() => {});
          }
        });
        const timer = setInterval(() => void sendTurn(job), Math.min(job.intervalMs, 1000));
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
