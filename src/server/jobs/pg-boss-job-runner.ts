import { setTimeout as sleep } from "node:timers/promises";
import PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import { reportOncePerOutage } from "../outage-log.ts";
import type { JobLog, JobRunner, PeriodicJob } from "./job-runner.ts";
import { recordScheduledError, recordScheduledRun } from "./scheduled-job.repository.ts";

/**
 * pg-boss (PostgreSQL): jobs are rows in its own schema, taken with SKIP LOCKED. A periodic job is
 * sent by every instance each interval as a singleton of that time slot, so pg-boss keeps one job per
 * slot and one instance runs it. pg-boss's cron is minute-grained; the sandbox settles every second.
 *
 * Each job is fetched, run and completed by a loop of ours rather than by `boss.work`: pg-boss's
 * worker does not await the completion it sends after a handler, so a connection lost at that moment
 * (a restart, `pg_terminate_backend`) was an unhandled rejection that ended the process. Here every
 * call to pg-boss is awaited and its failure logged, once per outage; the loop goes on, and pg-boss's
 * pool opens new connections when the database answers again.
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
  // Connections dropped while idle, failed maintenance, failed sends and completions: one line when
  // the trouble starts and one when pg-boss answers again, however many calls failed in between.
  const trouble = reportOncePerOutage(
    log,
    "job queue cannot reach the database",
    "job queue reaches the database again",
  );
  boss.on("error", (error) => trouble.failed(error));
  const periodic: PeriodicJob[] = [];
  const created = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  const loops: Promise<void>[] = [];
  const stopping = new AbortController();
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
        await sleep(50 * attempt);
      }
    }
  };

  /** Runs a pg-boss call; a failure is logged (once per outage) and answered with undefined. */
  const attempt = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await call();
      trouble.recovered();
      return result;
    } catch (error) {
      trouble.failed(error);
      return undefined;
    }
  };

  const sendTurn = (job: PeriodicJob) =>
    attempt(() =>
      boss.send(
        job.name,
        {},
        {
          singletonKey: job.name,
          singletonSeconds: Math.max(1, Math.round(job.intervalMs / 1000)),
          retryLimit: 0,
        },
      ),
    );

  const runHandler = async (job: PeriodicJob) => {
    try {
      await recordScheduledRun(database.db, job.name, job.intervalMs);
      await job.handler();
    } catch (error) {
      log.error({ err: error, job: job.name }, "periodic job failed");
      await recordScheduledError(database.db, job.name, error).catch(() => {});
    }
  };

  /** Takes this job's turns one at a time until stopped. */
  const workLoop = async (job: PeriodicJob, pollMs: number) => {
    while (!stopping.signal.aborted) {
      // pg-boss's fetch answers [] when it cannot reach the database, so it proves nothing either way.
      const [next] = await boss.fetch(job.name).catch((error: unknown) => {
        trouble.failed(error);
        return [];
      });
      if (next) {
        await runHandler(job);
        // A completion that fails leaves the job active until pg-boss expires it; its slot has passed by then.
        await attempt(() => boss.complete(job.name, next.id));
        continue;
      }
      await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => {});
    }
  };

  return {
    every(name, intervalMs, handler) {
      periodic.push({ name, intervalMs, handler });
    },
    async start() {
      await boss.start();
      started = true;
      for (const job of periodic) {
        await ensureQueue(job.name);
        // This start's turn is queued before the loop's first fetch, which is immediate.
        await sendTurn(job);
        const pollMs = Math.min(Math.max(job.intervalMs / 2, 500), 5000);
        loops.push(workLoop(job, pollMs));
        const timer = setInterval(() => void sendTurn(job), Math.min(job.intervalMs, 1000));
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      stopping.abort();
      // The turns in progress finish (and are completed) first.
      await Promise.all(loops);
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
