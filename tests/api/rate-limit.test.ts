import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ content: false });
});
afterAll(async () => t?.close());

const attempt = (app: TestApp["app"]) =>
  app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    remoteAddress: "198.51.100.7",
    headers: { origin: TEST_ORIGIN },
    payload: { email: "someone@example.com", password: "wrong-password" },
  });

describe("rate limits on sign-in", () => {
  it("throttles with 429, and the count survives a restart because it lives in the database", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(t.app)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);

    const stored = await t.testDb.database.db.selectFrom("rateLimit").select(["key", "count"]).execute();
    expect(stored.some((r) => r.key.includes("sign-in") && r.count >= 10)).toBe(true);

    // A second server process on the same database still refuses.
    const restarted = await buildApp({ config: t.config, database: t.testDb.database });
    const res = await attempt(restarted);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBeTruthy();
    await restarted.close();
  });

  it("does not throttle another address", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      remoteAddress: "198.51.100.8",
      headers: { origin: TEST_ORIGIN },
      payload: { email: "someone-else@example.com", password: "wrong-password" },
    });
    expect(res.statusCode).toBe(401);
  });
});
