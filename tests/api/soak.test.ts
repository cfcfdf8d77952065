import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "#server/content/content-files.ts";
import { importContent } from "#server/content/content-import.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { buildServer } from "../../scripts/build-server.mjs";
import { freePort, scratchPostgresDatabase } from "../setup/server-process.ts";
import { FIXTURE_CONTENT } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

// A short soak (issue 37's "done when"): two instances of the compiled server on one PostgreSQL and
// one Redis of this test's own take sign-ups, each of which queues a verification e-mail, while the
// test terminates the instances' database connections three times and kills and restarts Redis.
// Afterwards both instances are up and ready, and every acknowledged sign-up got its message exactly
// once (none got two). Nothing here asserts how fast anything is: waits end on events (the server's
// output, the mail arriving) and the test's timeout only bounds a hang.
const APP_URL = "http://localhost:3000";
const appName = `soak_${randomBytes(4).toString("hex")}`;
const bundle = `dist/soak-${randomBytes(4).toString("hex")}/main.js`;
const SIGN_UPS = 90;
const SIGN_UP_EVERY_MS = 200;

/** A child process and its output, with a wait for text in it that fails at once if it exits first. */
function watched(child: ChildProcess) {
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk;
    for (const check of [...waiters]) check();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  child.on("exit", () => {
    for (const check of [...waiters]) check();
  });
  return {
    child,
    text: () => text,
    until: (needle: string) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (text.includes(needle)) {
            waiters.delete(check);
            done();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            fail(new Error(`exited before printing "${needle}":\n${text.slice(-4000)}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

let smtp: TestSmtp;
let redisPort = 0;
let redis: ReturnType<typeof watched> | undefined;
let databaseUrl = "";
let dropDatabase = async () => {};
const instances: { port: number; server: ReturnType<typeof watched> }[] = [];

async function startRedis() {
  const child = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  redis = watched(child);
  await redis.until("Ready to accept connections");
}

async function stopRedis() {
  const running = redis;
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = new Promise((done) => running.child.once("exit", done));
  running.child.kill("SIGKILL");
  await exited;
}

/** Ends every database connection of the two instances (pool, job queue, LISTEN), as a failover does. */
async function terminateAppConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      "select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1",
      [appName],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

async function startInstance() {
  const port = await freePort();
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", appName);
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      APP_URL,
      DATABASE_URL: url.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      AUTH_SECRET: "soak-secret-that-is-long-enough-for-better-auth",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      TRUST_PROXY: "1",
      WEB_CONCURRENCY: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const server = watched(child);
  await server.until("ready at");
  instances.push({ port, server });
}

const runs = testEngine === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  if (!runs) return;
  await buildServer(bundle);
  smtp = await startTestSmtp();
  redisPort = await freePort();
  await startRedis();
  const scratch = await scratchPostgresDatabase(process.env.TEST_DATABASE_URL!, "soak");
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
  const database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  await importContent(database.db, loadContent(FIXTURE_CONTENT));
  await database.close();
  await Promise.all([startInstance(), startInstance()]);
}, 300_000);

afterAll(async () => {
  await Promise.all(
    instances.map(async ({ server }) => {
      if (server.child.exitCode !== null || server.child.signalCode !== null) return;
      const exited = new Promise((done) => server.child.once("exit", done));
      server.child.kill("SIGTERM");
      await exited;
    }),
  );
  await stopRedis();
  await smtp?.close();
  await dropDatabase();
  rmSync(resolve(bundle, ".."), { recursive: true, force: true });
}, 60_000);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe.skipIf(!runs)(
  "a short soak: two compiled instances, PostgreSQL connections terminated, Redis restarted",
  () => {
    it("leaves every instance up and ready, and sends each acknowledged sign-up's message exactly once", async () => {
      const acknowledged: string[] = [];
      const refused: number[] = [];
      const attempted: string[] = [];
      const signUp = async (i: number) => {
        const email = `soak-${i}-${appName}@example.com`;
        attempted.push(email);
        const { port } = instances[i % 2]!;
        try {
          const response = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
            method: "POST",
            headers: {
              origin: APP_URL,
              "content-type": "application/json",
              // One client address per sign-up: the sign-up limit is not what this tests.
              "x-forwarded-for": `10.${Math.floor(i / 250)}.${i % 250}.7`,
            },
            body: JSON.stringify({
              email,
              password: "calm-river-42-soak",
              name: "Soak Learner",
              firstName: "Soak",
              lastName: "Learner",
            }),
          });
          if (response.status === 200) acknowledged.push(email);
          else refused.push(response.status);
        } catch {
          refused.push(0);
        }
      };

      // A storm of terminations (every 100 ms for 3 s) lands some on queries in flight: a job's
      // fetch or completion, the outbox's send, a request's transaction, the LISTEN connection.
      const storm = async (ms: number) => {
        for (const end = Date.now() + ms; Date.now() < end; ) {
          await terminateAppConnections();
          await sleep(100);
        }
      };
      const faults = (async () => {
        await sleep(2000);
        expect(await terminateAppConnections()).toBeGreaterThan(0);
        await storm(3000);
        await sleep(1000);
        await stopRedis();
        await sleep(3000);
        await startRedis();
        await sleep(1000);
        await storm(3000);
      })();
      const load: Promise<void>[] = [];
      for (let i = 0; i < SIGN_UPS; i++) {
        load.push(signUp(i));
        await sleep(SIGN_UP_EVERY_MS);
      }
      await Promise.all([...load, faults]);

      // Sign-ups went on between the faults (an instance that died would refuse every later one), and
      // those refused during a fault got a 503 with nothing written; once the faults are over, all pass.
      expect(acknowledged.length).toBeGreaterThanOrEqual(SIGN_UPS / 4);
      expect(refused.filter((status) => status !== 503)).toEqual([]);
      const before = acknowledged.length;
      for (let i = SIGN_UPS; i < SIGN_UPS + 10; i++) await signUp(i);
      expect(acknowledged.length - before).toBe(10);

      const received = (email: string) => smtp.inbox.filter((mail) => mail.to.includes(email)).length;
      await smtp.until(() => acknowledged.every((email) => received(email) >= 1));
      for (const instance of instances) {
        expect(instance.server.child.exitCode).toBeNull();
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${instance.port}/readyz`).catch(() => null))?.status, {
            timeout: 30_000,
            interval: 250,
          })
          .toBe(200);
        expect(instance.server.text()).not.toMatch(/unhandled|uncaught/i);
      }
      expect(acknowledged.filter((email) => received(email) !== 1)).toEqual([]);
      expect(attempted.filter((email) => received(email) > 1)).toEqual([]);
    }, 240_000);
  },
);
