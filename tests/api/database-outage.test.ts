import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#server/db/database.ts";
import { createJobRunner } from "#server/jobs/job-runner.ts";
import { nth } from "../setup/must.ts";
import { startTcpProxy, type TcpProxy } from "../setup/tcp-proxy.ts";
import { createTestApp, enrol, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";
import { dropTestSchema, testEngine } from "../setup/test-database.ts";

// Losing PostgreSQL (a restart, terminated connections) must cost no process and no acknowledged write:
// requests meanwhile get a 503 with a message, /readyz says not ready, and service resumes by itself.
// The app reaches the shared PostgreSQL through a proxy of this test's own, which the test cuts and
// restores; pg_terminate_backend is limited to this app's connections (their application_name).
const pgUrl = process.env.TEST_DATABASE_URL;
const appName = `outage_${randomBytes(4).toString("hex")}`;
const LESSONS = ["alpha-one", "alpha-two"];

let proxy: TcpProxy;
let t: TestApp;
let base: string;
const learners: TestUser[] = [];
/** Every write the server acknowledged with a 200: learner id and lesson id. */
const acknowledged: { userId: string; lessonId: string }[] = [];
/** What the job runner logged, and every promise rejection nothing handled (each would end a server process). */
const jobLog: { level: "info" | "error"; msg: string }[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/**
 * A periodic job of this test's own, beside the app's, run by the app's runner: it counts its runs,
 * and while `hold` is set it waits inside its handler until the test lets it finish.
 */
const probe = {
  runs: 0,
  inside: false,
  hold: null as null | { promise: Promise<void>; resolve: () => void },
  async run() {
    probe.inside = true;
    await probe.hold?.promise;
    probe.inside = false;
    probe.runs++;
  },
};

beforeAll(async () => {
  if (testEngine !== "postgres" || !pgUrl) return;
  const target = new URL(pgUrl);
  proxy = await startTcpProxy(Number(target.port || 5432), target.hostname);
  const proxied = new URL(pgUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  proxied.searchParams.set("application_name", appName);
  t = await createTestApp({
    appDatabase: (testDb) => openDatabase(proxied.toString(), { schema: testDb.schema, poolSize: 5 }),
    // The job runner a PostgreSQL server uses (pg-boss), through the same proxy.
    createJobs: (database) => (log) => {
      const runner = createJobRunner(database, {
        info: (obj, msg) => {
          jobLog.push({ level: "info", msg });
          log.info(obj, msg);
        },
        error: (obj, msg) => {
          jobLog.push({ level: "error", msg });
          log.error(obj, msg);
        },
      });
      runner.every("outage-probe", 1000, () => probe.run());
      return runner;
    },
  });
  process.on("unhandledRejection", onUnhandled);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  for (let i = 0; i < 12; i++) {
    const learner = await signUpUser(t.app);
    await enrol(t, learner, "fixture-basics");
    learners.push(learner);
  }
}, 60_000);

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  probe.hold?.resolve();
  proxy?.restore();
  await t?.close();
  if (t?.testDb.schema && pgUrl) {
    await dropTestSchema(pgUrl, `${t.testDb.schema}_jobs`);
  }
  await proxy?.close();
});

interface Outcome {
  status: number | "dropped";
  message?: unknown;
}

async function call(path: string, init: { method?: string; cookie?: string } = {}): Promise<Outcome> {
  try {
    const response = await fetch(base + path, {
      method: init.method ?? "GET",
      headers: {
        origin: TEST_ORIGIN,
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.method === "POST" ? { "content-type": "application/json" } : {}),
      },
      ...(init.method === "POST" ? { body: "{}" } : {}),
    });
    const body = (await response.json().catch(() => ({}))) as { message?: unknown };
    return { status: response.status, message: body.message };
  } catch {
    return { status: "dropped" };
  }
}

/** Every learner completes a lesson at once; the 200s are remembered as acknowledged writes. */
async function writeWave(lessonId: string, during?: () => Promise<void>): Promise<Outcome[]> {
  const wave = Promise.all(
    learners.map(async (learner) => {
      const outcome = await call(`/api/progress/fixture-basics/lessons/${lessonId}/complete`, {
        method: "POST",
        cookie: learner.cookie,
      });
      if (outcome.status === 200) acknowledged.push({ userId: learner.id, lessonId });
      return outcome;
    }),
  );
  await during?.();
  return wave;
}

/** Nothing but a success or a 503 with a message: no dropped connection, no 500. */
function expectOnlySuccessOr503(outcomes: Outcome[]) {
  for (const outcome of outcomes) {
    if (outcome.status === 200) continue;
    expect(outcome.status).toBe(503);
    expect(outcome.message).toMatch(/try again/i);
  }
}

async function terminateAppConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
      [appName],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** pg-boss's record of the probe's turns that were completed (a turn whose completion was lost stays active). */
async function completedProbeTurns(): Promise<number> {
  const jobs = new pg.Client({ connectionString: pgUrl });
  await jobs.connect();
  try {
    const result = await jobs.query(
      `select count(*)::int as n from ${t.testDb.schema}_jobs.job where name = 'outage-probe' and state = 'completed'`,
    );
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await jobs.end();
  }
}

/** The channels this app's connections LISTEN on now. */
async function listeningChannels(): Promise<string[]> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    const result = await admin.query<{ query: string }>(
      "select query from pg_stat_activity where application_name = $1 and query ilike 'listen %' order by query",
      [appName],
    );
    return result.rows.map((row) => row.query.replace(/^listen /i, ""));
  } finally {
    await admin.end();
  }
}

/** Lets the probe's next turn start and holds it inside its handler. */
async function holdProbeInside() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  probe.hold = { promise, resolve };
  await expect.poll(() => probe.inside, { timeout: 20_000, interval: 50 }).toBe(true);
  return () => {
    probe.hold?.resolve();
    probe.hold = null;
  };
}

async function expectServiceResumes() {
  await expect.poll(async () => (await call("/readyz")).status, { timeout: 20_000, interval: 200 }).toBe(200);
  const learner = nth(learners, 0);
  const again = await call(`/api/progress/fixture-basics`, { cookie: learner.cookie });
  expect(again.status).toBe(200);
}

async function expectAcknowledgedWritesKept() {
  const db = t.testDb.database.db;
  const rows = await db.selectFrom("lessonCompletion").select(["userId", "lessonId"]).execute();
  const stored = new Set(rows.map((r) => `${r.userId}/${r.lessonId}`));
  for (const write of acknowledged) expect(stored).toContain(`${write.userId}/${write.lessonId}`);
}

describe.skipIf(testEngine !== "postgres")("losing the database", () => {
  it("keeps serving and running jobs when its connections are terminated while jobs run, and when a job's completion cannot reach the database", async () => {
    await expect.poll(() => probe.runs, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);

    // Terminated while a job runs: the job finishes, the next turns run.
    let release = await holdProbeInside();
    expect(await terminateAppConnections()).toBeGreaterThan(0);
    release();
    const afterTerminate = probe.runs;
    expect(await terminateAppConnections()).toBeGreaterThanOrEqual(0);
    await expect.poll(() => probe.runs, { timeout: 20_000, interval: 100 }).toBeGreaterThan(afterTerminate + 1);

    // The database goes away while a job runs, so the runner's completion of it fails; fetching and
    // sending keep failing until it is back, and the whole outage is one line in the log.
    release = await holdProbeInside();
    const outageLines = () => jobLog.filter((line) => line.msg.includes("cannot reach")).length;
    const recoveryLines = () => jobLog.filter((line) => line.msg.includes("reaches the database again")).length;
    await expect.poll(recoveryLines).toBe(outageLines());
    const [outagesBefore, recoveriesBefore] = [outageLines(), recoveryLines()];
    proxy.cut();
    release();
    // pg-boss's own worker left that completion's failure unhandled, which ends a server process.
    await expect.poll(() => unhandled.length > 0 || outageLines() > outagesBefore).toBe(true);
    expect(unhandled).toEqual([]);
    // Many more calls fail while it is away (each one a refused connection); none is logged again.
    const refusedBefore = proxy.refused();
    await expect.poll(() => proxy.refused()).toBeGreaterThan(refusedBefore + 5);
    expect(outageLines()).toBe(outagesBefore + 1);
    const runsDuringOutage = probe.runs;
    const completedBefore = await completedProbeTurns();
    proxy.restore();

    await expect.poll(() => probe.runs, { timeout: 20_000, interval: 100 }).toBeGreaterThan(runsDuringOutage + 1);
    await expect.poll(completedProbeTurns, { timeout: 20_000, interval: 200 }).toBeGreaterThan(completedBefore);
    await expect.poll(recoveryLines).toBeGreaterThan(recoveriesBefore);
    expect(unhandled).toEqual([]);
    await expectServiceResumes();
  }, 90_000);

  it("survives its connections being terminated in the middle of requests", async () => {
    // Warm the pool so idle connections exist to be terminated.
    expectOnlySuccessOr503(await writeWave(nth(LESSONS, 0)));
    let terminated = 0;
    const outcomes = await writeWave(nth(LESSONS, 1), async () => {
      terminated = await terminateAppConnections();
    });
    expect(terminated).toBeGreaterThan(0);
    expectOnlySuccessOr503(outcomes);
    // The idle connections the pool still held were terminated too; the next requests find that out.
    terminated = await terminateAppConnections();
    expectOnlySuccessOr503(await writeWave(nth(LESSONS, 0)));
    await expectServiceResumes();
    await expectAcknowledgedWritesKept();
  }, 60_000);

  it("answers 503 while the database is away, reports not ready, and resumes by itself when it is back", async () => {
    const outcomes = await writeWave(nth(LESSONS, 1), async () => {
      proxy.cut();
    });
    expectOnlySuccessOr503(outcomes);
    const ready = await call("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.message).toBeTruthy();
    const during = await call(`/api/progress/fixture-basics`, { cookie: nth(learners, 0).cookie });
    expect(during).toEqual({ status: 503, message: expect.stringMatching(/try again/i) });
    // Sign-in goes through Better Auth: the same answer.
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ email: nth(learners, 1).email, password: nth(learners, 1).password }),
    });
    expect(signIn.status).toBe(503);
    expect(((await signIn.json()) as { message: string }).message).toMatch(/try again/i);
    expect((await call("/healthz")).status).toBe(200);

    proxy.restore();
    await expectServiceResumes();
    // The LISTEN connections come back too, so news of a content import elsewhere arrives at once again.
    await expect.poll(listeningChannels, { timeout: 20_000, interval: 200 }).toContain("academy_content_imported");
    expectOnlySuccessOr503(await writeWave(nth(LESSONS, 0)));
    await expectAcknowledgedWritesKept();
    expect(acknowledged.length).toBeGreaterThan(0);
  }, 60_000);
});
