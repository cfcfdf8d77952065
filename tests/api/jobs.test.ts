import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner, type JobRunner } from "#server/jobs/job-runner.ts";
import { createTestDatabase, dropTestSchema, type TestDatabase } from "../setup/test-database.ts";

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
    await dropTestSchema(testDb.url, `${testDb.schema}_jobs`);
  }
  await testDb?.drop();
}, 60_000);

function instance(): JobRunner {
  const runner = createJobRunner(testDb.database, log);
  runners.push(runner);
  return runner;
}

describe("background jobs across instances", () => {
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
