import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/test-app.ts";

const run = promisify(execFile);
const TSX = resolve("node_modules/.bin/tsx");

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

describe("the server process", () => {
  it("stops at start-up on a bad setting, with a message naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bad-setting-"));
    const result = await run(TSX, ["src/server/main.ts"], {
      env: { ...process.env, PORT: "not-a-port", DATABASE_URL: `sqlite:${join(dir, "x.db")}` },
    }).catch((e) => e);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("PORT");
  });

  it("serves, then on SIGTERM finishes and exits cleanly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sigterm-"));
    const port = await freePort();
    const child = spawn(TSX, ["src/server/main.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        PORT: String(port),
        DATABASE_URL: `sqlite:${join(dir, "academy.db")}`,
        AUTH_SECRET: "s".repeat(40),
        MAIL_OUTBOX_DIR: join(dir, "outbox"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    await expect.poll(() => output.includes("ready at"), { timeout: 30_000, interval: 200 }).toBe(true);
    const inFlight = fetch(`http://127.0.0.1:${port}/api/courses`);
    child.kill("SIGTERM");
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(6);
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    expect(code).toBe(0);
    expect(output).toContain("finishing requests in flight");
  });

  it("makes a consistent copy of the SQLite database with db:backup", async () => {
    const dir = mkdtempSync(join(tmpdir(), "backup-"));
    const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "academy.db")}` };
    await run(TSX, ["scripts/content-import.ts"], { env });
    const target = join(dir, "copy.db");
    const { stdout } = await run(TSX, ["scripts/db-backup.ts", target], { env });
    expect(stdout).toContain("Backup written");
    const copy = new Database(target, { readonly: true });
    const courses = copy.prepare("select count(*) as n from course").get() as { n: number };
    expect(courses.n).toBe(6);
    copy.close();
  });
});

describe("serving the built app", () => {
  const clientDir = resolve("dist/client");
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clientDir });
  });
  afterAll(async () => t?.close());

  it.skipIf(!existsSync(join(clientDir, "index.html")))(
    "falls back to the app for client routes, caches hashed assets for a year, and keeps /api 404s as JSON",
    async () => {
      const page = await t.app.inject({ method: "GET", url: "/course/anything/lesson/else" });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.headers["cache-control"]).toBe("no-cache");
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
      expect(asset).toBeTruthy();
      const js = await t.app.inject({ method: "GET", url: asset!, headers: { "accept-encoding": "gzip" } });
      expect(js.statusCode).toBe(200);
      expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(js.headers["content-encoding"]).toBe("gzip");
      const api = await t.app.inject({ method: "GET", url: "/api/unknown" });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ message: "Not found" });
    },
  );
});
