import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner, type JobRunner } from "#server/jobs/job-runner.ts";
import { createTestDatabase, type TestDatabase } from "../setup/test-database.ts";

// The runner main.ts uses on this run's engine (pg-boss on PostgreSQL, the table runner on SQLite),
// two of them on one database standing for two app instances.
const log = { info: () => {}, error: () => {} };
let testDb: TestDatabase;
const runners: JobRunner[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  if (testDb?.schema) {
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    await client.query(`drop schema if exists ${testDb.schema}_jobs cascade`);
    await client.end();
  }
  await testDb?.drop();
}, 60_000);

function instance(): JobRunner {
  const runner = createJobRunner(testDb.database, log);
  runners.push(runner);
  return runner;
}

describe("background jobs across instances", () => {
  it("hands each sent job to one instance, and keeps jobs sent while nobody works until someone does", async () => {
    const handled: string[] = [];
    const sender = instance();
    await sender.start();
    for (const n of [1, 2, 3, 4, 5]) await sender.send("greet-learner", { n: `job-${n}` });

    // The workers start after the jobs were sent, as after a restart.
    const [a, b] = [instance(), instance()];
    for (const runner of [a, b]) {
      runner.work<{ n: string }>("greet-learner", async ({ n }) => {
        handled.push(n);
      });
    }
    await Promise.all([a.start(), b.start()]);
    await expect.poll(() => handled.length, { timeout: 20_000, interval: 200 }).toBe(5);
    expect([...handled].sort()).toEqual(["job-1", "job-2", "job-3", "job-4", "job-5"]);
  }, 60_000);

  it("runs a periodic job once per turn whichever instances are running", async () => {
    let runs = 0;
    const [a, b] = [instance(), instance()];
    for (const runner of [a, b]) {
      runner.every("hourly-tidy", 60 * 60 * 1000, async () => {
        runs++;
      });
    }
    await Promise.all([a.start(), b.start()]);
    await expect.poll(() => runs, { timeout: 20_000, interval: 200 }).toBe(1);
    const row = await testDb.database.db
      .selectFrom("scheduledJob")
      .select("runs")
      .where("name", "=", "hourly-tidy")
      .executeTakeFirstOrThrow();
    expect(row.runs).toBe(1);
  }, 60_000);
});
