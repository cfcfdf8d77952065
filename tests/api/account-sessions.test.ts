import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { openDatabase } from "#server/db/database.ts";
import { turnOnTwoFactor, withCookies } from "../setup/second-factor.ts";
import { createTestApp, request, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";

// The account's sessions on the profile and the security e-mails (docs/decisions/0054).
let t: TestApp;
let second: FastifyInstance;
let closeSecond: () => Promise<void>;
let address = 0;
beforeAll(async () => {
  t = await createTestApp();
  // A second app server: its own connection pool on the same database.
  const database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
  second = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await second.ready();
  closeSecond = async () => {
    await second.close();
    await database.close();
  };
});
afterAll(async () => {
  await closeSecond?.();
  await t?.close();
});

const db = () => t.testDb.database.db;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

async function signIn(user: TestUser, userAgent: string, cookie = "") {
  address++;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    remoteAddress: `203.0.113.${address % 250}`,
    headers: { origin: TEST_ORIGIN, "user-agent": userAgent, ...(cookie ? { cookie } : {}) },
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode).toBe(200);
  return withCookies(cookie, res);
}
const me = async (app: FastifyInstance, cookie: string) =>
  (await request(app, "GET", "/api/auth/user", { cookie })).json();
const securityMails = (userId: string) =>
  db()
    .selectFrom("outboxEmail")
    .select(["data"])
    .where("userId", "=", userId)
    .where("template", "=", "account-security")
    .orderBy("createdAt")
    .execute()
    .then((rows) => rows.map((r) => (JSON.parse(r.data) as { event: string; detail: string }).event));

describe("the account's sessions", () => {
  it("lists each session with its device, marks the current one, and never shows a token", async () => {
    const user = await signUpUser(t.app);
    const laptop = await signIn(user, FIREFOX);
    await signIn(user, SAFARI);
    const res = await request(t.app, "GET", "/api/profile/sessions", { cookie: laptop });
    expect(res.statusCode).toBe(200);
    const sessions = res.json() as { id: string; device: string; current: boolean }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current).map((s) => s.device)).toEqual(["Firefox on Linux"]);
    expect(sessions.map((s) => s.device)).toContain("Safari on iOS");
    const tokens = await db().selectFrom("session").select("token").where("userId", "=", user.id).execute();
    for (const { token } of tokens) expect(res.body).not.toContain(token);
  });

  it("signing out one session ends it on the other instance at once; another account's session cannot be named", async () => {
    const user = await signUpUser(t.app);
    const phone = await signIn(user, SAFARI);
    const sessions = (await request(t.app, "GET", "/api/profile/sessions", { cookie: user.cookie })).json();
    const phoneId = sessions.find((s: { device: string }) => s.device === "Safari on iOS").id;
    expect(await me(second, phone)).toMatchObject({ id: user.id });
    const stranger = await signUpUser(t.app);
    expect(
      (await request(t.app, "DELETE", `/api/profile/sessions/${phoneId}`, { cookie: stranger.cookie })).statusCode,
    ).toBe(404);
    expect(await me(second, phone)).toMatchObject({ id: user.id });
    const ended = await request(t.app, "DELETE", `/api/profile/sessions/${phoneId}`, { cookie: user.cookie });
    expect(ended.json()).toEqual({ ended: 1 });
    expect(await me(second, phone)).toBeNull();
    expect(await me(second, user.cookie)).toMatchObject({ id: user.id });
  });

  it("signing out all others keeps only this one, on every instance", async () => {
    const user = await signUpUser(t.app);
    const a = await signIn(user, FIREFOX);
    const b = await signIn(user, SAFARI);
    const res = await request(second, "POST", "/api/profile/sessions/sign-out-others", { cookie: user.cookie });
    expect(res.json()).toEqual({ ended: 2 });
    expect(await me(t.app, a)).toBeNull();
    expect(await me(second, b)).toBeNull();
    expect(await me(t.app, user.cookie)).toMatchObject({ id: user.id });
    expect((await request(t.app, "GET", "/api/profile/sessions", { cookie: a })).statusCode).toBe(401);
  });
});

describe("security e-mails", () => {
  it("a new device is told once; the same browser again is not", async () => {
    const user = await signUpUser(t.app);
    // The browser that signed up is known already.
    await signIn(user, FIREFOX, user.cookie);
    expect(await securityMails(user.id)).toEqual([]);
    const phone = await signIn(user, SAFARI);
    expect(await securityMails(user.id)).toEqual(["new-device"]);
    await signIn(user, SAFARI, phone);
    expect(await securityMails(user.id)).toEqual(["new-device"]);
  });

  it("two-factor on, a backup code used, new backup codes, two-factor off, a password change", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    expect(await securityMails(user.id)).toEqual(["two-factor-on"]);
    const backup = await request(t.app, "POST", "/api/auth/two-factor/verify-backup-code", {
      cookie: user.cookie,
      payload: { code: app.backupCodes[0] },
    });
    expect(backup.statusCode).toBe(200);
    const renewed = await request(t.app, "POST", "/api/auth/two-factor/generate-backup-codes", {
      cookie: user.cookie,
      payload: { password: user.password },
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().backupCodes).toHaveLength(10);
    const off = await request(t.app, "POST", "/api/auth/two-factor/disable", {
      cookie: user.cookie,
      payload: { password: user.password },
    });
    expect(off.statusCode).toBe(200);
    const cookie = withCookies(user.cookie, off);
    const changed = await request(t.app, "POST", "/api/auth/change-password", {
      cookie,
      payload: { currentPassword: user.password, newPassword: "quiet-forest-77" },
    });
    expect(changed.statusCode).toBe(200);
    expect(await securityMails(user.id)).toEqual([
      "two-factor-on",
      "backup-code-used",
      "backup-codes-renewed",
      "two-factor-off",
      "password-changed",
    ]);
  });

  it("new backup codes need a code confirmed within 10 minutes", async () => {
    const user = await signUpUser(t.app);
    await turnOnTwoFactor(t, user);
    await db()
      .updateTable("session")
      .set({ secondFactorAt: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where("userId", "=", user.id)
      .execute();
    const refused = await request(t.app, "POST", "/api/auth/two-factor/generate-backup-codes", {
      cookie: user.cookie,
      payload: { password: user.password },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("STEP_UP_REQUIRED");
  });
});
