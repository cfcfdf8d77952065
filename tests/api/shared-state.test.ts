import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { SIGN_IN_FAILURE_LIMIT } from "#server/limits/sign-in-lockout.ts";
import { deliverQueuedMail } from "../setup/outbox.ts";
import { startTcpProxy, type TcpProxy } from "../setup/tcp-proxy.ts";
import { createTestApp, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";
import { inspectRedis, requireRedisOrSkip, TEST_REDIS_URL, uniqueRedisPrefix } from "../setup/test-redis.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

// Rate limits, the sign-in lockout, reset-mail caps and cache news are shared by every instance:
// through Redis when REDIS_URL is set, through the database otherwise (decision 0031). Each setting
// runs on two app instances over one database; the Redis ones use a key prefix of their own on the
// machine's Redis, and the outage reaches Redis through a proxy this test cuts (the shared Redis
// itself is never touched). Without a Redis here, the Redis tests are skipped with the reason.
const redisHere = await requireRedisOrSkip("shared-state.test.ts");
const LOCKED = "Too many failed sign-in attempts for this account.";

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => smtp?.close());

interface Pair {
  t: TestApp;
  a: FastifyInstance;
  b: FastifyInstance;
  close: () => Promise<void>;
}

/** Two app instances on one database (each with its own connections), with these settings. */
async function twoInstances(env: Record<string, string>): Promise<Pair> {
  const t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...env } });
  const database: Database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
  const b = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await b.ready();
  return {
    t,
    a: t.app,
    b,
    close: async () => {
      await b.close();
      await database.close();
      await t.close();
    },
  };
}

let client = 0;
const nextAddress = () => `198.51.${100 + Math.floor(++client / 250)}.${client % 250}`;

const signIn = (app: FastifyInstance, email: string, password: string, remoteAddress = nextAddress()) =>
  app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: TEST_ORIGIN },
    remoteAddress,
    payload: { email, password },
  });

const verify = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ method: "GET", url: "/api/verify/NO-SUCH-CERT", remoteAddress });

const askReset = (app: FastifyInstance, email: string) =>
  app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    headers: { origin: TEST_ORIGIN },
    remoteAddress: nextAddress(),
    payload: { email, redirectTo: "/reset-password" },
  });

const resetMailsTo = (email: string) =>
  smtp.inbox.filter((m) => m.to.includes(email) && /reset-password\//.test(m.raw));

/** The database's shared counters whose key starts so. */
async function databaseCounters(t: TestApp, start: string) {
  const rows = await t.testDb.database.db.selectFrom("hitCounter").select(["key", "count"]).execute();
  return rows.filter((r) => r.key.startsWith(start));
}

/** Where a setting keeps its counters: the test checks each limit lands there and nowhere else. */
interface Where {
  /** The keys this pair stored in Redis (empty when it has none). */
  redisKeys: () => Promise<string[]>;
  redis: boolean;
}

async function expectCountedIn(where: Where, t: TestApp, start: string, { keysInRedis = true } = {}) {
  const inDatabase = await databaseCounters(t, start);
  const inRedis = (await where.redisKeys()).filter((k) => k.startsWith(start));
  if (where.redis) {
    // Cache news passes through Redis and leaves nothing there.
    if (keysInRedis) expect(inRedis.length, `${start} keys in Redis`).toBeGreaterThan(0);
    expect(inDatabase, `${start} rows in the database`).toEqual([]);
  } else {
    expect(inDatabase.length, `${start} rows in the database`).toBeGreaterThan(0);
    expect(inRedis).toEqual([]);
  }
}

const settings = [
  { name: "without REDIS_URL: through the database", redis: false },
  { name: "with REDIS_URL: through Redis", redis: true },
] as const;

for (const setting of settings) {
  describe.skipIf(setting.redis && !redisHere)(
    `shared limits on two instances (${testEngine}), ${setting.name}`,
    () => {
      let pair: Pair;
      let where: Where;
      let cleanup = async () => {};
      beforeAll(async () => {
        if (setting.redis) {
          const prefix = uniqueRedisPrefix();
          const look = inspectRedis(prefix);
          pair = await twoInstances({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
          where = { redis: true, redisKeys: () => look.keys() };
          cleanup = () => look.clear();
        } else {
          pair = await twoInstances({});
          where = { redis: false, redisKeys: async () => [] };
        }
      });
      afterAll(async () => {
        await pair?.close();
        await cleanup();
      });

      it("30 wrong passwords at once over both: at most 10 are checked, then even the right one is refused", async () => {
        const user = await signUpUser(pair.a);
        const guesses = Array.from({ length: 30 }, (_, i) =>
          signIn(i % 2 ? pair.b : pair.a, user.email, `wrong-guess-${i}`),
        );
        const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
        expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_FAILURE_LIMIT);
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - SIGN_IN_FAILURE_LIMIT);
        expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
        for (const app of [pair.a, pair.b]) {
          const right = await signIn(app, user.email, user.password);
          expect(right.statusCode).toBe(429);
          expect(right.json().message).toContain(LOCKED);
        }
        await expectCountedIn(where, pair.t, "sign-in-failures:");
      });

      it("a right password clears the count on both instances", async () => {
        const user = await signUpUser(pair.a);
        for (let i = 0; i < SIGN_IN_FAILURE_LIMIT - 1; i++)
          expect((await signIn(i % 2 ? pair.b : pair.a, user.email, `wrong-${i}`)).statusCode).toBe(401);
        expect((await signIn(pair.b, user.email, user.password)).statusCode).toBe(200);
        // Nine more wrong ones do not lock it: the count started again.
        for (let i = 0; i < SIGN_IN_FAILURE_LIMIT - 1; i++)
          expect((await signIn(i % 2 ? pair.a : pair.b, user.email, `again-${i}`)).statusCode).toBe(401);
        expect((await signIn(pair.a, user.email, user.password)).statusCode).toBe(200);
      });

      it("counts the verify-page limit (30 a minute per address) across both", async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 31; i++) statuses.push((await verify(i % 2 ? pair.b : pair.a, "203.0.113.10")).statusCode);
        expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
        expect(statuses[30]).toBe(429);
        const refused = await verify(pair.a, "203.0.113.10");
        expect(refused.json().message).toMatch(/^Too many requests\. Try again in \d+ (second|minute)s?\.$/);
        // Another address is not affected.
        expect((await verify(pair.b, "203.0.113.11")).statusCode).not.toBe(429);
        await expectCountedIn(where, pair.t, "route:");
      });

      it("counts the sign-in limit per address (10 a minute) across both", async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++) {
          const res = await signIn(i % 2 ? pair.b : pair.a, `nobody-${i}@example.com`, "wrong-password", "192.0.2.77");
          statuses.push(res.statusCode);
        }
        expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
        expect(statuses[10]).toBe(429);
        const stored = await pair.t.testDb.database.db.selectFrom("rateLimit").select("key").execute();
        if (setting.redis) {
          expect(stored).toEqual([]);
          await expectCountedIn(where, pair.t, "auth:");
        } else {
          expect(stored.some((r) => r.key.includes("192.0.2.77"))).toBe(true);
        }
      });

      it("mails one account at most 3 reset links an hour, whichever instance is asked", async () => {
        const user = await signUpUser(pair.a);
        for (let i = 0; i < 6; i++) expect((await askReset(i % 2 ? pair.b : pair.a, user.email)).statusCode).toBe(200);
        await deliverQueuedMail(pair.a);
        await deliverQueuedMail(pair.b);
        await expect.poll(() => resetMailsTo(user.email).length).toBe(3);
        await expectCountedIn(where, pair.t, "reset-mail:");
      });

      it("carries cache news from one instance to the other", async () => {
        let heardOnB = 0;
        let heardOnA = 0;
        const stopB = pair.b.deps.invalidation.subscribe("course-templates", () => heardOnB++);
        const stopA = pair.a.deps.invalidation.subscribe("course-templates", () => heardOnA++);
        // A subscription is in place once the other side's news gets through; then each publish arrives.
        await expect
          .poll(
            async () => {
              await pair.a.deps.invalidation.publish("course-templates");
              return heardOnB;
            },
            { timeout: 10_000, interval: 500 },
          )
          .toBeGreaterThan(0);
        // And the other way, once A's own subscription is in place (on a loaded machine it may not be yet).
        await expect
          .poll(
            async () => {
              await pair.b.deps.invalidation.publish("course-templates");
              return heardOnA;
            },
            { timeout: 10_000, interval: 500 },
          )
          .toBeGreaterThan(0);
        stopA();
        stopB();
        await expectCountedIn(where, pair.t, "invalidate:", { keysInRedis: false });
      });
    },
  );
}

describe.skipIf(!redisHere)(`Redis going away and coming back (${testEngine})`, () => {
  let proxy: TcpProxy;
  let pair: Pair;
  let look: ReturnType<typeof inspectRedis>;
  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy(Number(target.port || 6379), target.hostname);
    const prefix = uniqueRedisPrefix();
    look = inspectRedis(prefix);
    pair = await twoInstances({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix });
  });
  afterAll(async () => {
    proxy?.restore();
    await pair?.close();
    await look?.clear();
    await proxy?.close();
  });

  const readiness = async (app: FastifyInstance) => {
    const res = await app.inject({ method: "GET", url: "/readyz" });
    return { status: res.statusCode, body: res.json() as { status?: string; message?: string } };
  };

  it("requests go on with the limits held in the database, /readyz says degraded, and Redis is used again once back", async () => {
    for (const app of [pair.a, pair.b])
      await expect.poll(async () => (await readiness(app)).body.status, { timeout: 10_000 }).toBe("ready");
    const user = await signUpUser(pair.a);
    let heard = 0;
    const stop = pair.b.deps.invalidation.subscribe("sessions", () => heard++);

    proxy.cut();
    for (const app of [pair.a, pair.b]) {
      await expect.poll(async () => (await readiness(app)).body.status, { timeout: 10_000 }).toBe("degraded");
      const ready = await readiness(app);
      expect(ready.status).toBe(200);
      expect(ready.body.message).toMatch(/Redis is unreachable/);
    }
    // The lockout still holds, counted in the database.
    for (let i = 0; i < SIGN_IN_FAILURE_LIMIT; i++)
      expect((await signIn(i % 2 ? pair.b : pair.a, user.email, `wrong-${i}`)).statusCode).toBe(401);
    for (const app of [pair.a, pair.b]) {
      const locked = await signIn(app, user.email, user.password);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toContain(LOCKED);
    }
    expect((await databaseCounters(pair.t, "sign-in-failures:")).length).toBe(1);
    // Route limits too.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await verify(i % 2 ? pair.b : pair.a, "203.0.113.40")).statusCode);
    expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Cache news goes through the database.
    const before = heard;
    await pair.a.deps.invalidation.publish("sessions");
    await expect.poll(() => heard, { timeout: 10_000 }).toBeGreaterThan(before);
    expect((await pair.a.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

    const heardBeforeReturn = heard;
    proxy.restore();
    for (const app of [pair.a, pair.b])
      await expect.poll(async () => (await readiness(app)).body.status, { timeout: 20_000 }).toBe("ready");
    // Whatever was published while B could not hear Redis: B's subscribers are told once it is back.
    await expect.poll(() => heard, { timeout: 10_000 }).toBeGreaterThan(heardBeforeReturn);
    // Counting is back in Redis.
    const other = await signUpUser(pair.a);
    await expect
      .poll(
        async () => {
          await signIn(pair.b, other.email, "wrong-after-return");
          return (await look.keys()).filter((k) => k.startsWith("sign-in-failures:")).length;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    stop();
  }, 120_000);
});
