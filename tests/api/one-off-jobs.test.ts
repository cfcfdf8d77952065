import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createOneOffJobs,
  defineJob,
  ONE_OFF_BACKOFF_BASE_MS,
  ONE_OFF_CLAIM_MS,
  ONE_OFF_PAGE,
  trigger,
} from "#server/jobs/one-off-jobs.ts";
import { folderStorage } from "#server/storage/file-storage.ts";
import { removeStoredFiles, removeStoredFilesWith } from "#server/storage/remove-stored-files.ts";
import { createTestApp, type TestApp } from "../setup/test-app.ts";

// One-off jobs (decision 0059): written in the transaction of the event that causes them, run once
// across every instance, retried with back-off, "failed" with the reason after their limit, and never
// holding up the jobs behind one that fails. The jobs here have names of their own, so the app's own
// turn (which runs every second) leaves them to the queues each test builds, as a second instance would.
let t: TestApp;
const log = { warn: () => {} };
const db = () => t.app.deps.database.db;

beforeAll(async () => {
  t = await createTestApp({ content: false });
});
afterAll(async () => t?.close());

let named = 0;
/** A job definition of the test's own, and the payloads its handler ran, in order. */
function probeJob(options: { maxAttempts?: number; fails?: (n: number) => boolean } = {}) {
  const job = defineJob({
    name: `probe-${++named}`,
    payload: z.object({ n: z.number().int() }),
    maxAttempts: options.maxAttempts,
  });
  const ran: number[] = [];
  const handler = async ({ n }: { n: number }) => {
    if (options.fails?.(n)) throw new Error(`probe ${n} refused`);
    ran.push(n);
  };
  return { job, ran, handler };
}

const rowsOf = (name: string) =>
  db().selectFrom("oneOffJob").selectAll().where("name", "=", name).orderBy("createdAt").orderBy("id").execute();

describe("trigger", () => {
  it("writes the job with the caller's transaction: a rolled-back change leaves no job, a committed one runs once", async () => {
    const probe = probeJob();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trigger(trx, probe.job, { n: 1 });
          throw new Error("the change failed");
        }),
    ).rejects.toThrow("the change failed");
    await db()
      .transaction()
      .execute(async (trx) => void (await trigger(trx, probe.job, { n: 2 })));
    expect((await rowsOf(probe.job.name)).map((r) => JSON.parse(r.payload).n)).toEqual([2]);

    // Two instances take turns at the same moment: the job runs in one of them, once.
    const a = createOneOffJobs(db(), log);
    const b = createOneOffJobs(db(), log);
    a.handle(probe.job, probe.handler);
    b.handle(probe.job, probe.handler);
    await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    expect(probe.ran).toEqual([2]);
    expect((await rowsOf(probe.job.name))[0]).toMatchObject({ status: "done", attempts: 1 });
  });

  it("refuses a payload its definition does not accept, writing nothing", async () => {
    const probe = probeJob();
    await expect(trigger(db(), probe.job, { n: 1.5 })).rejects.toThrow();
    expect(await rowsOf(probe.job.name)).toEqual([]);
  });

  it("makes work that two paths cause one job when they name the same key", async () => {
    const probe = probeJob();
    expect(await trigger(db(), probe.job, { n: 1 }, { key: "order-1" })).toBe(true);
    expect(await trigger(db(), probe.job, { n: 1 }, { key: "order-1" })).toBe(false);
    expect(await rowsOf(probe.job.name)).toHaveLength(1);
  });
});

describe("a turn", () => {
  it("runs every due job when more are due than one page holds", async () => {
    const probe = probeJob();
    const count = ONE_OFF_PAGE * 2 + 7;
    for (let n = 0; n < count; n++) await trigger(db(), probe.job, { n });
    const queue = createOneOffJobs(db(), log);
    queue.handle(probe.job, probe.handler);
    expect(await queue.runDue()).toEqual({ done: count, retrying: 0, failed: 0 });
    expect(probe.ran.sort((x, y) => x - y)).toEqual(Array.from({ length: count }, (_, n) => n));
  });

  it("runs the jobs behind ones that keep failing, backs the failing ones off, and fails them after their limit with the reason", async () => {
    // A page and more of failing jobs at the head of the queue, five good ones behind them.
    const probe = probeJob({ maxAttempts: 3, fails: (n) => n < ONE_OFF_PAGE + 5 });
    const start = Date.now();
    for (let n = 0; n < ONE_OFF_PAGE + 10; n++) await trigger(db(), probe.job, { n }, { now: new Date(start + n) });
    const queue = createOneOffJobs(db(), log);
    queue.handle(probe.job, probe.handler);
    const now = start + 1000;
    expect(await queue.runDue(now)).toEqual({ done: 5, retrying: ONE_OFF_PAGE + 5, failed: 0 });
    expect(probe.ran.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4].map((i) => ONE_OFF_PAGE + 5 + i));

    // Not due again until the back-off has passed: exactly at it, it runs; a moment before, nothing.
    expect(await queue.runDue(now + ONE_OFF_BACKOFF_BASE_MS - 1)).toEqual({ done: 0, retrying: 0, failed: 0 });
    expect(await queue.runDue(now + ONE_OFF_BACKOFF_BASE_MS)).toEqual({
      done: 0,
      retrying: ONE_OFF_PAGE + 5,
      failed: 0,
    });
    // The wait doubles; the third attempt is the last.
    const third = now + ONE_OFF_BACKOFF_BASE_MS + 2 * ONE_OFF_BACKOFF_BASE_MS;
    expect(await queue.runDue(third - 1)).toEqual({ done: 0, retrying: 0, failed: 0 });
    expect(await queue.runDue(third)).toEqual({ done: 0, retrying: 0, failed: ONE_OFF_PAGE + 5 });
    const rows = await rowsOf(probe.job.name);
    const failed = rows.filter((r) => r.status === "failed");
    expect(failed).toHaveLength(ONE_OFF_PAGE + 5);
    expect(failed[0]).toMatchObject({ attempts: 3, lastError: "probe 0 refused" });
    expect(await queue.runDue(third + 3_600_000)).toEqual({ done: 0, retrying: 0, failed: 0 });
  });

  it("runs a job again, once, when the process that claimed it died before finishing", async () => {
    const probe = probeJob();
    const start = Date.now();
    await trigger(db(), probe.job, { n: 7 }, { now: new Date(start) });
    // A process claims it and dies: the row is left running under a claim that lasts ONE_OFF_CLAIM_MS.
    const dead = createOneOffJobs(db(), log);
    dead.handle(probe.job, () => new Promise<void>(() => {}));
    void dead.runDue(start);
    await expect.poll(async () => (await rowsOf(probe.job.name))[0]?.status).toBe("running");

    const restarted = createOneOffJobs(db(), log);
    restarted.handle(probe.job, probe.handler);
    expect(await restarted.runDue(start + ONE_OFF_CLAIM_MS - 1)).toEqual({ done: 0, retrying: 0, failed: 0 });
    expect(await restarted.runDue(start + ONE_OFF_CLAIM_MS)).toEqual({ done: 1, retrying: 0, failed: 0 });
    expect(await restarted.runDue(start + 2 * ONE_OFF_CLAIM_MS)).toEqual({ done: 0, retrying: 0, failed: 0 });
    expect(probe.ran).toEqual([7]);
  });

  it("leaves jobs it has no handler for to the instances that have one", async () => {
    const probe = probeJob();
    await trigger(db(), probe.job, { n: 1 });
    const older = createOneOffJobs(db(), log);
    older.handle(probeJob().job, async () => {});
    expect(await older.runDue()).toEqual({ done: 0, retrying: 0, failed: 0 });
    expect((await rowsOf(probe.job.name))[0]).toMatchObject({ status: "queued", attempts: 0 });
  });
});

describe("removing stored files", () => {
  it("removes every file, again after storage refused some, without failing on those already gone", async () => {
    const dir = mkdtempSync(join(tmpdir(), "remove-files-"));
    try {
      const storage = folderStorage(dir);
      const keys = [randomUUID(), randomUUID(), randomUUID()].map((id) => `practical/${id}`);
      const refused = keys[1]!;
      for (const key of keys) await storage.put(key, Buffer.from(key));
      // Storage refuses "b" the first time (a network error reaching a bucket, say).
      let refusals = 1;
      const flaky = {
        ...storage,
        remove: async (key: string) => {
          if (key === refused && refusals-- > 0) throw new Error("storage away");
          return storage.remove(key);
        },
      };
      const queue = createOneOffJobs(db(), log);
      queue.handle(removeStoredFiles, removeStoredFilesWith(flaky));
      // An hour ahead, so the app's own turn (which removes from its own folder) leaves this one alone.
      const start = Date.now() + 3_600_000;
      await trigger(db(), removeStoredFiles, { keys }, { now: new Date(start) });
      expect(await queue.runDue(start)).toMatchObject({ retrying: 1 });
      expect(readdirSync(join(dir, "practical"))).toEqual([refused.split("/")[1]]);
      expect(await queue.runDue(start + ONE_OFF_BACKOFF_BASE_MS)).toMatchObject({ done: 1 });
      expect(readdirSync(join(dir, "practical"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
