import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { createTestApp, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ content: false });
});
afterAll(async () => t?.close());

describe("health checks and request ids", () => {
  it("answers /healthz when up and /readyz when the database is migrated and reachable", async () => {
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it("gives every response a request id, keeping a sane one the proxy sent", async () => {
    const fresh = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "edge-42.a" } });
    expect(kept.headers["x-request-id"]).toBe("edge-42.a");
    const refused = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id\nwith a newline" },
    });
    expect(refused.headers["x-request-id"]).not.toContain("bad");
  });
});

describe("readiness of a database this build has not migrated", () => {
  it("answers 503 naming the pending migration", async () => {
    const other = await createTestApp({ content: false });
    try {
      await sql`delete from kysely_migration where name = '009-scale-out'`.execute(other.testDb.database.db);
      const app = await buildApp({ config: other.config, database: other.testDb.database });
      const ready = await app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ message: "Database migrations are pending.", pending: ["009-scale-out"] });
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      await app.close();
    } finally {
      await other.close();
    }
  });

  it("writes one log line per request, carrying its request id, method, path and status", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await buildApp({
      config: t.config,
      database: t.testDb.database,
      logger: true,
      logStream: { write: (line) => lines.push(JSON.parse(line)) },
    });
    try {
      await app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "edge-7" } });
      await app.inject({ method: "GET", url: "/api/nowhere", headers: { "x-request-id": "edge-8" } });
      const mine = lines.filter((l) => typeof l.reqId === "string" && l.reqId.startsWith("edge-"));
      expect(mine).toEqual([
        expect.objectContaining({ reqId: "edge-7", method: "GET", url: "/healthz", statusCode: 200 }),
        expect.objectContaining({ reqId: "edge-8", method: "GET", url: "/api/nowhere", statusCode: 404 }),
      ]);
    } finally {
      await app.close();
    }
  });
});
