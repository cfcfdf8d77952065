import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { freePort } from "../setup/server-process.ts";
import { createTestApp, type TestApp } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";

const run = promisify(execFile);
// Starting a server takes seconds on a quiet machine, minutes on a shared, loaded one. Every wait
// here ends on an event (a line of output, bytes on a socket, an exit); this only bounds a hang, and
// nothing here asserts how fast anything is.
const TEST_MS = 360_000;
const TSX = resolve("node_modules/.bin/tsx");
// The server runs as production runs it: the compiled bundle (decision 0059), built for this file,
// by node itself with no tsx process between the test's signal and the server.
const bundle = `dist/process-${randomBytes(4).toString("hex")}/main.js`;
const SERVER = [bundle];

/**
 * A child process's output (stdout and stderr), and a wait for text in it that ends on the output
 * itself, not on a timer: it fails at once if the process exits first.
 */
function watchOutput(child: ChildProcess) {
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk;
    for (const check of [...waiters]) check();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  let exited = false;
  child.on("exit", () => {
    exited = true;
    for (const check of [...waiters]) check();
  });
  return {
    text: () => text,
    /** Resolves once `needle` has appeared `times` times (or, given a test of the whole output, once it holds). */
    until(needle: string | ((output: string) => boolean), times = 1) {
      const seen = typeof needle === "string" ? () => text.split(needle).length - 1 >= times : () => needle(text);
      return new Promise<void>((done, fail) => {
        const check = () => {
          if (seen()) {
            waiters.delete(check);
            done();
          } else if (exited) {
            waiters.delete(check);
            fail(new Error(`exited before printing ${String(needle)} ${times}×:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
type Output = ReturnType<typeof watchOutput>;

/**
 * A slow upload across a shutdown: the request asks for `100 Continue`, which the server sends once
 * it has the request in hand; then the first bytes of the body go out and `signal` runs; once the server has logged `drains` times that it is finishing
 * requests in flight, the rest of the body follows. Ordered by the server's own log lines, not by
 * waits, so a loaded machine changes only how long it takes.
 */
async function slowRequestAcrossSignal(port: number, output: Output, signal: () => void, drains = 1) {
  const body = JSON.stringify({ couponCode: "SLOW", courseId: "nutrition-coach" });
  let req!: ReturnType<typeof request>;
  const response = new Promise<{ status: number; text: string }>((done, fail) => {
    req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/validate-coupon",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          expect: "100-continue",
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => done({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", fail);
  });
  await new Promise((done) => req.once("continue", done));
  req.write(body.slice(0, 10));
  signal();
  await output.until("finishing requests in flight", drains);
  req.end(body.slice(10));
  return response;
}

/** A raw HTTP/1.1 connection (kept alive unless the server closes it), to see exactly what the server does. */
async function rawConnection(port: number) {
  const socket = connect(port, "127.0.0.1");
  await new Promise((done) => socket.once("connect", done));
  let received = "";
  let ended = false;
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const check of [...waiters]) check();
  };
  socket.on("data", (chunk) => {
    received += chunk;
    changed();
  });
  const closed = new Promise<string>((done) =>
    socket.on("close", () => {
      ended = true;
      changed();
      done(received);
    }),
  );
  socket.on("error", () => {});
  return {
    send: (text: string) => socket.write(text),
    received: () => received,
    closed,
    /** Resolves once what arrived matches `pattern`; fails if the connection closes first. */
    until(pattern: RegExp) {
      return new Promise<string>((done, fail) => {
        const check = () => {
          if (pattern.test(received)) {
            waiters.delete(check);
            done(received);
          } else if (ended) {
            waiters.delete(check);
            fail(new Error(`connection closed before ${pattern}; received: ${JSON.stringify(received)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

const COUPON_BODY = JSON.stringify({ couponCode: "SLOW", courseId: "nutrition-coach" });
/** Asks for `100 Continue`: the server sends it once it has the request in hand (in flight). */
const COUPON_HEAD = `POST /api/validate-coupon HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(COUPON_BODY)}\r\nExpect: 100-continue\r\n\r\n`;

/** Settings for a server process of its own on a fresh SQLite file. */
function serverEnv(port: number, workers: number): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), "server-process-"));
  return {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, "academy.db")}`,
    AUTH_SECRET: "s".repeat(40),
    MAIL_OUTBOX_DIR: join(dir, "outbox"),
    WEB_CONCURRENCY: String(workers),
  };
}

// These start servers of their own on a fresh SQLite file whatever the run's engine, so the
// PostgreSQL run would repeat them exactly; it leaves them to the SQLite run.
describe.skipIf(testEngine === "postgres")("the server process", () => {
  beforeAll(() => buildServer(bundle), 120_000);
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

  it(
    "stops at start-up on a bad setting, with a message naming it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "bad-setting-"));
      const result = await run(process.execPath, SERVER, {
        env: { ...process.env, PORT: "not-a-port", DATABASE_URL: `sqlite:${join(dir, "x.db")}` },
      }).catch((e) => e);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("PORT");
    },
    TEST_MS,
  );

  it(
    "serves, then on SIGTERM finishes and exits cleanly",
    async () => {
      const port = await freePort();
      const child = spawn(process.execPath, SERVER, { env: serverEnv(port, 1), stdio: ["ignore", "pipe", "pipe"] });
      const output = watchOutput(child);
      const exited = new Promise<number | null>((done) => child.on("exit", done));
      await output.until("ready at");
      const response = await slowRequestAcrossSignal(port, output, () => child.kill("SIGTERM"));
      expect(response.status).toBe(401);
      expect(JSON.parse(response.text).message).toBeTruthy();
      expect(await exited).toBe(0);
      expect(output.text()).toContain("finishing requests in flight");
    },
    TEST_MS,
  );

  it(
    "on SIGTERM answers /readyz 503 at once, answers what arrives on a kept-alive connection with Connection: close instead of resetting it, finishes the request in flight and exits",
    async () => {
      const port = await freePort();
      const child = spawn(process.execPath, SERVER, {
        // Serving on for a few seconds after SIGTERM, as in production, so /readyz can be asked.
        env: { ...serverEnv(port, 1), SHUTDOWN_DELAY_SECONDS: "5" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const output = watchOutput(child);
      const exited = new Promise<number | null>((done) => child.on("exit", done));
      await output.until("ready at");

      // A client that keeps its connection open after a request (as nginx's upstream keep-alive does),
      // and one with a request in flight.
      const idle = await rawConnection(port);
      idle.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect(await idle.until(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n[\s\S]*"ok"/)).toMatch(/connection: keep-alive/i);
      const busy = await rawConnection(port);
      busy.send(COUPON_HEAD);
      await busy.until(/^HTTP\/1\.1 100 Continue/);
      busy.send(COUPON_BODY.slice(0, 10));

      child.kill("SIGTERM");
      await output.until("finishing requests in flight");
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { message: string }).message).toBeTruthy();
      expect(ready.headers.get("connection")).toBe("close");

      // A POST on the connection that sat idle through the signal is answered, not reset.
      const before = idle.received().length;
      idle.send(COUPON_HEAD.replace("Expect: 100-continue\r\n", "") + COUPON_BODY);
      const second = (await idle.closed).slice(before);
      expect(second).toMatch(/^HTTP\/1\.1 401/);
      expect(second).toMatch(/connection: close/i);

      busy.send(COUPON_BODY.slice(10));
      const answer = await busy.closed;
      expect(answer).toMatch(/HTTP\/1\.1 401/);
      expect(answer).toMatch(/connection: close/i);
      expect(await exited).toBe(0);
    },
    TEST_MS,
  );

  it(
    "npm start runs WEB_CONCURRENCY workers; SIGTERM to npm itself lets a request in flight finish and stops them all",
    async () => {
      const port = await freePort();
      const npm = spawn("npm", ["start"], { env: serverEnv(port, 2), stdio: ["ignore", "pipe", "pipe"] });
      const output = watchOutput(npm);
      const exited = new Promise<number | null>((done) => npm.on("exit", done));
      await output.until("ready at");
      expect(output.text()).toContain("with 2 workers");
      const serverPids = () => [...new Set([...output.text().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1])))];
      await output.until(() => serverPids().length === 2);

      // A client keeping its connection open must not hold its worker past the drain limit.
      const idle = await rawConnection(port);
      idle.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
      await idle.until(/^HTTP\/1\.1 200/);
      // The primary and both workers each log that they are finishing.
      const response = await slowRequestAcrossSignal(port, output, () => npm.kill("SIGTERM"), 3);
      expect(response.status).toBe(401);
      expect(JSON.parse(response.text).message).toBeTruthy();
      await idle.closed;
      // 0: every worker exited by itself; the primary's drain limit would have ended with 1. The
      // primary exits only once the cluster has seen every worker exit.
      expect(await exited).toBe(0);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      expect(serverPids().filter(alive)).toEqual([]);
    },
    TEST_MS,
  );

  it(
    "makes a consistent copy of the SQLite database with db:backup",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "backup-"));
      const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "academy.db")}` };
      await run(TSX, ["scripts/content-import.ts", "--publish", "major", "--note", "First import"], { env });
      const target = join(dir, "copy.db");
      const { stdout } = await run(TSX, ["scripts/db-backup.ts", target], { env });
      expect(stdout).toContain("Backup written");
      const copy = new Database(target, { readonly: true });
      const courses = copy.prepare("select count(*) as n from course").get() as { n: number };
      expect(courses.n).toBe(6);
      copy.close();
    },
    TEST_MS,
  );
});

describe("serving the built app", () => {
  const clientDir = resolve("dist/client");
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clientDir });
  });
  afterAll(async () => t?.close());

  it.skipIf(!existsSync(join(clientDir, "index.html")))(
    "falls back to the app for client routes, caches hashed assets for a year and the heading font for a week, and keeps /api 404s as JSON",
    async () => {
      const page = await t.app.inject({ method: "GET", url: "/course/fixture-basics/lesson/alpha-one" });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.headers["cache-control"]).toBe("no-cache");
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
      expect(asset).toBeTruthy();
      const js = await t.app.inject({ method: "GET", url: asset!, headers: { "accept-encoding": "gzip" } });
      expect(js.statusCode).toBe(200);
      expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(js.headers["content-encoding"]).toBe("gzip");
      const font = await t.app.inject({ method: "GET", url: "/fonts/lora-latin-700-normal.woff2" });
      expect(font.statusCode).toBe(200);
      expect(font.headers["cache-control"]).toBe("public, max-age=604800");
      const api = await t.app.inject({ method: "GET", url: "/api/unknown" });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ message: "Not found" });
    },
  );
});
