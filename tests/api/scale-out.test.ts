import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "#server/content/content-files.ts";
import { importContent } from "#server/content/content-import.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { freePort, scratchPostgresDatabase } from "../setup/server-process.ts";
import { testEngine } from "../setup/test-database.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

// Two real server processes on one database (the engine this run tests), behind one proxy hop.
const TSX = resolve("node_modules/.bin/tsx");
const APP_URL = "http://localhost:3000";
const LOCKED = "Too many failed sign-in attempts for this account.";

interface Instance {
  port: number;
  child: ChildProcess;
  output: () => string;
}

let dir: string;
let databaseUrl: string;
let database: Database;
let smtp: TestSmtp;
let dropDatabase: () => Promise<void> = async () => {};
let a: Instance;
let b: Instance;

async function startInstance(port?: number): Promise<Instance> {
  const p = port ?? (await freePort());
  const child = spawn(TSX, ["src/server/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(p),
      APP_URL,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: "scale-out-secret-that-is-long-enough-for-auth",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      TRUST_PROXY: "1",
      WEB_CONCURRENCY: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server not ready in time:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("ready at")) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", () => fail(new Error(`server exited:\n${output}`)));
  });
  return { port: p, child, output: () => output };
}

async function stopInstance(instance: Instance | undefined) {
  if (!instance || instance.child.exitCode !== null) return;
  const exited = new Promise((done) => instance.child.on("exit", done));
  instance.child.kill("SIGTERM");
  await exited;
}

/** A request as the proxy passes it on: the client's own X-Forwarded-For, then the address the proxy saw. */
function call(
  instance: Instance,
  method: string,
  path: string,
  options: { clientIp: string; forged?: string; body?: unknown } = { clientIp: "192.0.2.1" },
) {
  const headers: Record<string, string> = {
    origin: APP_URL,
    "x-forwarded-for": options.forged ? `${options.forged}, ${options.clientIp}` : options.clientIp,
  };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  return fetch(`http://127.0.0.1:${instance.port}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "scale-out-"));
  smtp = await startTestSmtp();
  if (testEngine === "postgres") {
    const scratch = await scratchPostgresDatabase(process.env.TEST_DATABASE_URL!, "scale");
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  } else {
    databaseUrl = `sqlite:${join(dir, "academy.db")}`;
  }
  // Migrated and loaded once here, so the two servers start side by side with nothing left to do.
  database = openDatabase(databaseUrl);
  await migrateToLatest(database.db);
  await importContent(database.db, loadContent());
  [a, b] = await Promise.all([startInstance(), startInstance()]);
}, 300_000);

afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
  await database?.close();
  await smtp?.close();
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe(`two app processes on one ${testEngine} database`, () => {
  it("after a content import, both serve the new price within 2 s", async () => {
    const priceOn = async (instance: Instance) =>
      ((await (await call(instance, "GET", "/api/courses/nutrition-coach")).json()) as { price: number }).price;
    const before = await priceOn(a);
    expect(await priceOn(b)).toBe(before);

    const content = loadContent();
    const course = content.courses.find((c) => c.id === "nutrition-coach")!;
    course.course.price = before + 1000;
    await importContent(database.db, { ...content, hash: `${content.hash}-repriced` });

    await expect.poll(() => priceOn(a), { timeout: 2000, interval: 100 }).toBe(before + 1000);
    await expect.poll(() => priceOn(b), { timeout: 2000, interval: 100 }).toBe(before + 1000);
  });

  it("counts the certificate-verify limit across both", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await call(i % 2 ? b : a, "GET", "/api/verify/NO-SUCH-CERT", { clientIp: "203.0.113.10" });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another client is not affected.
    expect((await call(a, "GET", "/api/verify/NO-SUCH-CERT", { clientIp: "203.0.113.11" })).status).not.toBe(429);
  });

  it("with one trusted hop, a forged X-Forwarded-For does not reset the sign-in limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(i % 2 ? b : a, "POST", "/api/auth/sign-in/email", {
        clientIp: "198.51.100.77",
        forged: `10.9.8.${i}`,
        body: { email: `nobody-${i}@example.com`, password: "wrong-password" },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("locks an account after 10 failed sign-ins from anywhere, tells its owner once, and holds across a restart", async () => {
    const email = `owner-${Date.now()}@example.com`;
    const password = "a-long-and-unusual-password-42";
    const signUp = await call(a, "POST", "/api/auth/sign-up/email", {
      clientIp: "192.0.2.50",
      body: { email, password, firstName: "Ada", lastName: "Owner" },
    });
    expect(signUp.status).toBe(200);

    // Ten guesses from ten addresses, spread over both instances.
    for (let i = 0; i < 10; i++) {
      const res = await call(i % 2 ? b : a, "POST", "/api/auth/sign-in/email", {
        clientIp: `192.0.2.${100 + i}`,
        body: { email, password: `wrong-guess-${i}` },
      });
      expect(res.status).toBe(401);
    }
    // Now even the right password, from a new address, on either instance, is refused.
    for (const instance of [a, b]) {
      const res = await call(instance, "POST", "/api/auth/sign-in/email", {
        clientIp: "192.0.2.200",
        body: { email, password },
      });
      expect(res.status).toBe(429);
      expect(((await res.json()) as { message: string }).message).toContain(LOCKED);
    }
    // One e-mail about it (besides the sign-up's address confirmation).
    const lockMails = () =>
      smtp.inbox
        .filter((m) => m.to.includes(email))
        .map((m) => m.raw.replace(/=\r?\n/g, ""))
        .filter((raw) => raw.includes("sign-in to it is paused"));
    await expect.poll(() => lockMails().length, { timeout: 10_000 }).toBe(1);
    expect(lockMails()[0]).toContain("wrong password 10 times within 15 minutes");

    // A restarted instance still refuses.
    const port = b.port;
    await stopInstance(b);
    b = await startInstance(port);
    const res = await call(b, "POST", "/api/auth/sign-in/email", {
      clientIp: "192.0.2.201",
      body: { email, password },
    });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { message: string }).message).toContain(LOCKED);
    expect(lockMails().length).toBe(1);
  }, 240_000);

  it("runs a scheduled job once across both, and not again after a restart", async () => {
    const runs = async () =>
      (
        await database.db
          .selectFrom("scheduledJob")
          .select("runs")
          .where("name", "=", "prune-expired-rows")
          .executeTakeFirstOrThrow()
      ).runs;
    // Hourly: both instances started within that hour, one ran it.
    await expect.poll(runs, { timeout: 10_000 }).toBe(1);
    const port = a.port;
    await stopInstance(a);
    a = await startInstance(port);
    expect((await call(a, "GET", "/readyz")).status).toBe(200);
    expect(await runs()).toBe(1);
  }, 240_000);
});
