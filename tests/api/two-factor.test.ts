import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { STEP_UP_MAX_AGE_MS } from "#shared/schemas/auth.ts";
import {
  authenticatorFor,
  confirmedAgo as confirmedAgoOf,
  paidOrder,
  securityMailsTo,
  turnOnTwoFactor,
  withCookies,
} from "../setup/second-factor.ts";
import {
  createTestApp,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";
import { requireRedisOrSkip, uniqueRedisPrefix } from "../setup/test-redis.ts";

// Two-factor sign-in, the staff rule and re-confirmation (docs/decisions/0054), with the rule on as in
// production (the other API tests run with STAFF_SECOND_FACTOR=off).
let t: TestApp;
let address = 0;
beforeAll(async () => {
  t = await createTestApp({ env: { STAFF_SECOND_FACTOR: "on", ADMIN_EMAILS: "listed-head@academy.example" } });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;

/** Each call from its own client address, so the per-address limits stay out of the per-account tests. */
function post(app: TestApp, url: string, cookie: string, payload?: unknown, remoteAddress?: string) {
  address++;
  return app.app.inject({
    method: "POST",
    url,
    remoteAddress: remoteAddress ?? `198.51.100.${address % 250}`,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}
const me = async (cookie: string) => (await request(t.app, "GET", "/api/auth/user", { cookie })).json();

/** Password first: the answer asks for the code and opens no session yet; its cookie carries the challenge. */
async function signInWithPassword(app: TestApp, user: TestUser) {
  const res = await post(app, "/api/auth/sign-in/email", "", { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ twoFactorRedirect: true });
  return withCookies("", res);
}

describe("two-factor sign-in with an authenticator app", () => {
  it("set up with a first code, then sign-in asks for a code after the password", async () => {
    const user = await signUpUser(t.app);
    const enabled = await post(t, "/api/auth/two-factor/enable", user.cookie, { password: user.password });
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json();
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Holistic%20Wellness%20Academy:/);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    // Not on before the first code: the password alone still signs in.
    const before = await post(t, "/api/auth/sign-in/email", "", { email: user.email, password: user.password });
    expect(before.json().twoFactorRedirect).toBeUndefined();
    const app = authenticatorFor(totpURI);
    const wrongFirst = await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: "000000" });
    expect(wrongFirst.statusCode).toBe(401);
    const first = await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: await app.code() });
    expect(first.statusCode).toBe(200);

    const pending = await signInWithPassword(t, user);
    expect(await me(pending)).toBeNull();
    const wrong = await post(t, "/api/auth/two-factor/verify-totp", pending, { code: "123456" });
    expect(wrong.statusCode).toBe(401);
    const right = await post(t, "/api/auth/two-factor/verify-totp", pending, { code: await app.code(1) });
    expect(right.statusCode).toBe(200);
    expect(await me(withCookies(pending, right))).toMatchObject({ email: user.email });
  });

  it("refuses a code that was already accepted (replay), at sign-in and at re-confirmation", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    // The next step's code: accepted for the next minute, and not the one that turned two-factor on.
    const code = await app.code(1);
    const pending = await signInWithPassword(t, user);
    expect((await post(t, "/api/auth/two-factor/verify-totp", pending, { code })).statusCode).toBe(200);
    const again = await signInWithPassword(t, user);
    const replay = await post(t, "/api/auth/two-factor/verify-totp", again, { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("CODE_REUSED");
    expect(await me(withCookies(again, replay))).toBeNull();
    // The session's own re-confirmation refuses it too; a fresh code passes.
    expect((await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code })).json().code).toBe("CODE_REUSED");
    const fresh = await app.freshCode(code, ...app.used);
    expect((await post(t, "/api/auth/two-factor/verify-totp", again, { code: fresh })).statusCode).toBe(200);
  });

  it("two requests with the same code at once: exactly one is accepted", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    const code = await app.code(1);
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() => post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it("backup codes: each signs in once, a used one is refused, and after the tenth none is left", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    const [first, ...rest] = app.backupCodes;
    const pending = await signInWithPassword(t, user);
    const used = await post(t, "/api/auth/two-factor/verify-backup-code", pending, { code: first });
    expect(used.statusCode).toBe(200);
    expect(await me(withCookies(pending, used))).toMatchObject({ email: user.email });
    const reuse = await post(t, "/api/auth/two-factor/verify-backup-code", await signInWithPassword(t, user), {
      code: first,
    });
    expect(reuse.statusCode).toBe(401);
    // The other nine, through the session (as a re-confirmation would), each once.
    for (const code of rest)
      expect((await post(t, "/api/auth/two-factor/verify-backup-code", user.cookie, { code })).statusCode).toBe(200);
    for (const code of [first, rest[0], rest[8]])
      expect((await post(t, "/api/auth/two-factor/verify-backup-code", user.cookie, { code })).statusCode).toBe(401);
    // The app's codes still work.
    expect(
      (await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: await app.code(1) })).statusCode,
    ).toBe(200);
  });

  it("trusting the device skips the code at the next sign-in from it, not from another browser", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    const pending = await signInWithPassword(t, user);
    const trusted = await post(t, "/api/auth/two-factor/verify-totp", pending, {
      code: await app.code(1),
      trustDevice: true,
    });
    expect(trusted.statusCode).toBe(200);
    const device = withCookies(pending, trusted);
    expect(device).toMatch(/trust_device=/);
    const next = await post(t, "/api/auth/sign-in/email", device, { email: user.email, password: user.password });
    expect(next.json().twoFactorRedirect).toBeUndefined();
    expect(await me(withCookies(device, next))).toMatchObject({ email: user.email });
    await signInWithPassword(t, user);
  });
});

describe("wrong codes are limited as passwords are", () => {
  async function guessing(app: TestApp) {
    const user = await signUpUser(app.app);
    const authenticator = await turnOnTwoFactor(app, user);
    // Ten wrong codes are checked (each from its own address), the eleventh request is not: even the
    // right code waits.
    for (let i = 1; i <= 10; i++) {
      const wrong = await post(app, "/api/auth/two-factor/verify-totp", user.cookie, { code: String(100000 + i) });
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await post(app, "/api/auth/two-factor/verify-totp", user.cookie, {
      code: await authenticator.code(1),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("CODE_LOCKED");
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    // A pending sign-in to the same account is locked too.
    const pending = await signInWithPassword(app, user);
    expect((await post(app, "/api/auth/two-factor/verify-totp", pending, { code: "999999" })).statusCode).toBe(429);
    // The owner is told once, as after ten wrong passwords.
    const told = await securityMailsTo(app, user.id);
    expect(told.filter((event) => event === "codes-paused")).toHaveLength(1);
  }

  /** Ten codes from one client address for one account, then the eleventh, right, for another: refused. */
  async function fromOneAddress(app: TestApp, from: string) {
    const user = await signUpUser(app.app);
    await turnOnTwoFactor(app, user);
    const other = await signUpUser(app.app);
    const otherApp = await turnOnTwoFactor(app, other);
    for (let i = 1; i <= 10; i++)
      expect(
        (await post(app, "/api/auth/two-factor/verify-totp", user.cookie, { code: String(400000 + i) }, from))
          .statusCode,
      ).toBe(401);
    const eleventh = await post(
      app,
      "/api/auth/two-factor/verify-totp",
      other.cookie,
      { code: await otherApp.code(1) },
      from,
    );
    expect(eleventh.statusCode).toBe(429);
  }

  async function withRedisApp(work: (app: TestApp) => Promise<void>) {
    if (!(await requireRedisOrSkip("two-factor.test.ts"))) return;
    const redisApp = await createTestApp({
      env: { STAFF_SECOND_FACTOR: "on", REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: uniqueRedisPrefix() },
    });
    try {
      await work(redisApp);
    } finally {
      await redisApp.close();
    }
  }

  it("ten wrong codes for one account lock its codes (database counters)", () => guessing(t));

  it("nine wrong codes and a right one: accepted, and the count starts again", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    for (let i = 1; i <= 9; i++)
      await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: String(200000 + i) });
    expect(
      (await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: await app.code(1) })).statusCode,
    ).toBe(200);
    for (let i = 1; i <= 10; i++)
      expect(
        (await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: String(300000 + i) })).statusCode,
      ).toBe(401);
  });

  it("one client address sending codes: the eleventh in a minute is refused (database counters)", () =>
    fromOneAddress(t, "203.0.113.77"));

  it("ten wrong codes lock the account on Redis too", () => withRedisApp((app) => guessing(app)));

  it("one client address sending codes is limited on Redis too", () =>
    withRedisApp((app) => fromOneAddress(app, "203.0.113.78")));
});

describe("staff need a second factor", () => {
  const staffRoute = (cookie: string) => request(t.app, "GET", "/api/admin/orders", { cookie });

  it("an admin without one has a learner's rights until two-factor is on", async () => {
    const admin = await signUpUser(t.app);
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
    expect(await me(admin.cookie)).toMatchObject({ role: "learner", roleOnHold: "admin" });
    expect((await staffRoute(admin.cookie)).statusCode).toBe(403);
    await turnOnTwoFactor(t, admin);
    const now = await me(admin.cookie);
    expect(now.role).toBe("admin");
    expect(now.roleOnHold).toBeUndefined();
    expect((await staffRoute(admin.cookie)).statusCode).toBe(200);
  });

  it("an ADMIN_EMAILS address follows the same rule", async () => {
    const head = await signUpUser(t.app, { email: "listed-head@academy.example" });
    await verifyEmail(t, head);
    expect(await me(head.cookie)).toMatchObject({ role: "learner", roleOnHold: "admin" });
    expect((await staffRoute(head.cookie)).statusCode).toBe(403);
    await turnOnTwoFactor(t, head);
    expect((await staffRoute(head.cookie)).statusCode).toBe(200);
  });

  it("an instructor and an assessor without one are refused their routes", async () => {
    for (const role of ["instructor", "assessor"] as const) {
      const staff = await signUpUser(t.app);
      await db().updateTable("user").set({ role }).where("id", "=", staff.id).execute();
      expect(await me(staff.cookie)).toMatchObject({ role: "learner", roleOnHold: role });
      const url = role === "instructor" ? "/api/studio/courses" : "/api/review/queue";
      expect((await request(t.app, "GET", url, { cookie: staff.cookie })).statusCode).toBe(403);
    }
  });
});

describe("re-confirmation before money and credential actions", () => {
  async function adminWithOrder() {
    const admin = await signUpUser(t.app);
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
    const app = await turnOnTwoFactor(t, admin);
    return { admin, app, order: await paidOrder(t) };
  }
  const confirmedAgo = (cookie: string, ms: number) => confirmedAgoOf(t, cookie, ms);
  const refund = (cookie: string, id: string) => post(t, `/api/admin/orders/${id}/refund`, cookie);

  it("a refund 10 minutes after the last code asks again, and goes through after a fresh code", async () => {
    const { admin, app, order } = await adminWithOrder();
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS + 5_000);
    const asked = await refund(admin.cookie, order.id);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().code).toBe("STEP_UP_REQUIRED");
    const confirmed = await post(t, "/api/auth/two-factor/verify-totp", admin.cookie, { code: await app.code(1) });
    expect(confirmed.statusCode).toBe(200);
    const done = await refund(withCookies(admin.cookie, confirmed), order.id);
    expect(done.statusCode).toBe(200);
  });

  it("a confirmation just inside 10 minutes still counts", async () => {
    const { admin, order } = await adminWithOrder();
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS - 5_000);
    expect((await refund(admin.cookie, order.id)).statusCode).toBe(200);
  });

  it("a stolen session cookie cannot re-confirm: wrong codes leave the action refused", async () => {
    const { admin, order } = await adminWithOrder();
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS + 1_000);
    const stolen = admin.cookie;
    for (const code of ["000000", "123456", "654321"])
      expect((await post(t, "/api/auth/two-factor/verify-totp", stolen, { code })).statusCode).toBe(401);
    const refused = await refund(stolen, order.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("STEP_UP_REQUIRED");
    // The backup codes of another account do not help either.
    const other = await signUpUser(t.app);
    const otherApp = await turnOnTwoFactor(t, other);
    const foreign = await post(t, "/api/auth/two-factor/verify-backup-code", stolen, { code: otherApp.backupCodes[0] });
    expect(foreign.statusCode).toBe(401);
    expect((await refund(stolen, order.id)).statusCode).toBe(403);
  });

  it("every action that moves money or credentials asks for it", async () => {
    const { admin } = await adminWithOrder();
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS + 1_000);
    const learner = await signUpUser(t.app);
    const calls = [
      request(t.app, "PUT", `/api/admin/learners/${learner.id}/role`, {
        cookie: admin.cookie,
        payload: { role: "assessor" },
      }),
      request(t.app, "POST", "/api/admin/coupons", {
        cookie: admin.cookie,
        payload: { code: "STEPUP10", percentOff: 10 },
      }),
      request(t.app, "POST", "/api/admin/course-staff", {
        cookie: admin.cookie,
        payload: { userId: learner.id, courseId: "fixture-basics", role: "assessor" },
      }),
      request(t.app, "POST", "/api/admin/certificates/HWA-AAAAAAAAAAAAAAAA/revoke", {
        cookie: admin.cookie,
        payload: { reason: "Issued in error" },
      }),
      request(t.app, "POST", "/api/admin/certificates/HWA-AAAAAAAAAAAAAAAA/extend", {
        cookie: admin.cookie,
        payload: { until: "2030-01-01", reason: "Extended for the test" },
      }),
      request(t.app, "POST", "/api/studio/courses/fixture-basics/versions/1/republish", { cookie: admin.cookie }),
      request(t.app, "POST", "/api/studio/courses/fixture-basics/publish", {
        cookie: admin.cookie,
        payload: { baseRevision: 0, note: "A note", kind: "minor" },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect([res.statusCode, res.json().code]).toEqual([403, "STEP_UP_REQUIRED"]);
    }
  });
});

describe("new backup codes need a confirmation within 10 minutes", () => {
  const renew = (user: TestUser) =>
    post(t, "/api/auth/two-factor/generate-backup-codes", user.cookie, { password: user.password });

  it("exactly 10 minutes after the last code: new codes; one millisecond later: asked again, then new codes", async () => {
    const user = await signUpUser(t.app);
    const app = await turnOnTwoFactor(t, user);
    const at = new Date(Date.now() - 1000);
    const token = decodeURIComponent(/session_token=([^;.]+)/.exec(user.cookie)?.[1] ?? "");
    await db().updateTable("session").set({ secondFactorAt: at.toISOString() }).where("token", "=", token).execute();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(at.getTime() + STEP_UP_MAX_AGE_MS);
      const atTheLine = await renew(user);
      expect(atTheLine.statusCode).toBe(200);
      expect(atTheLine.json().backupCodes).toHaveLength(10);
      vi.setSystemTime(at.getTime() + STEP_UP_MAX_AGE_MS + 1);
      const past = await renew(user);
      expect([past.statusCode, past.json().code]).toEqual([403, "STEP_UP_REQUIRED"]);
    } finally {
      vi.useRealTimers();
    }
    const confirmed = await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: await app.code(1) });
    expect(confirmed.statusCode).toBe(200);
    expect((await renew(user)).statusCode).toBe(200);
  });
});

describe("recovery of a member who lost every factor", () => {
  async function staffWithFactor(role: "admin" | "assessor") {
    const user = await signUpUser(t.app);
    await db().updateTable("user").set({ role }).where("id", "=", user.id).execute();
    await turnOnTwoFactor(t, user);
    return user;
  }
  const mailsTo = (userId: string) => securityMailsTo(t, userId);
  const reset = (cookie: string, id: string) => post(t, `/api/admin/learners/${id}/second-factors/reset`, cookie);

  it("another admin resets them: sessions end, the role waits again, audited, the owner e-mailed", async () => {
    const admin = await staffWithFactor("admin");
    const assessor = await staffWithFactor("assessor");
    expect(await me(assessor.cookie)).toMatchObject({ role: "assessor" });
    const res = await reset(admin.cookie, assessor.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userId: assessor.id, reset: true });
    expect(await me(assessor.cookie)).toBeNull();
    const again = await signUpUser(t.app).then(() =>
      post(t, "/api/auth/sign-in/email", "", { email: assessor.email, password: assessor.password }),
    );
    expect(again.json().twoFactorRedirect).toBeUndefined();
    expect(await me(withCookies("", again))).toMatchObject({ role: "learner", roleOnHold: "assessor" });
    expect(await db().selectFrom("twoFactor").select("id").where("userId", "=", assessor.id).execute()).toEqual([]);
    const audit = await db()
      .selectFrom("auditLog")
      .select(["actorEmail", "action"])
      .where("target", "=", assessor.email)
      .execute();
    expect(audit).toEqual([{ actorEmail: admin.email, action: "second-factors.reset" }]);
    expect(await mailsTo(assessor.id)).toContain("factors-reset");
  });

  it("never one's own factors, never by a learner, and only with a fresh code", async () => {
    const admin = await staffWithFactor("admin");
    expect((await reset(admin.cookie, admin.id)).statusCode).toBe(409);
    const learner = await signUpUser(t.app);
    const target = await staffWithFactor("assessor");
    expect((await reset(learner.cookie, target.id)).statusCode).toBe(403);
    await db()
      .updateTable("session")
      .set({ secondFactorAt: new Date(Date.now() - STEP_UP_MAX_AGE_MS - 1000).toISOString() })
      .where("userId", "=", admin.id)
      .execute();
    expect((await reset(admin.cookie, target.id)).json().code).toBe("STEP_UP_REQUIRED");
    expect(await me(target.cookie)).toMatchObject({ role: "assessor" });
  });

  it.skipIf(testEngine === "postgres")("the operator resets them from the command line", async () => {
    const admin = await staffWithFactor("admin");
    const out = execFileSync(resolve("node_modules/.bin/tsx"), ["scripts/admin.ts", "reset-factors", admin.email], {
      env: { ...process.env, DATABASE_URL: t.testDb.url, AUTH_SECRET: t.config.authSecret },
      encoding: "utf8",
    });
    expect(out).toContain("two-factor, passkeys and sessions removed");
    expect(await me(admin.cookie)).toBeNull();
    const audit = await db().selectFrom("auditLog").select("actorEmail").where("target", "=", admin.email).execute();
    expect(audit).toEqual([{ actorEmail: "command line" }]);
    expect(await mailsTo(admin.id)).toContain("factors-reset");
  });
});
