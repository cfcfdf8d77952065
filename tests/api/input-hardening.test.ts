import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestApp,
  enrol,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  type TestUser,
} from "../setup/test-app.ts";

let t: TestApp;
let learner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  learner = await signUpUser(t.app, { firstName: "Ada", lastName: "Lovelace" });
  await enrol(t, learner, "fixture-basics");
  admin = await signUpUser(t.app);
  await t.testDb.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
});
afterAll(async () => t?.close());

const expectRefused = (res: { statusCode: number; json: () => { message?: unknown } }) => {
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(/control characters/i);
};

describe("control characters are refused in every input, before any route sees them", () => {
  it("PUT /api/profile with a NUL in the name: 400, and the name is unchanged", async () => {
    const before = (await request(t.app, "GET", "/api/auth/user", { cookie: learner.cookie })).json().firstName;
    const res = await request(t.app, "PUT", "/api/profile", {
      cookie: learner.cookie,
      payload: { firstName: "A\u0000B", lastName: "Lovelace" },
    });
    expectRefused(res);
    const me = await request(t.app, "GET", "/api/auth/user", { cookie: learner.cookie });
    expect(me.json().firstName).toBe(before);
  });

  it("refuses NUL, other C0/C1 controls and lone surrogates in params, query and body", async () => {
    const cases: [string, "GET" | "POST" | "PUT", string, unknown?][] = [
      ["verify path", "GET", "/api/verify/HWA-%00"],
      ["course path", "GET", "/api/courses/fixture-basics%01"],
      ["progress path", "GET", "/api/progress/fixture-basics%00"],
      ["admin search", "GET", "/api/admin/learners?q=a%00"],
      ["admin orders", "GET", "/api/admin/orders?q=%1b"],
      ["coupon", "POST", "/api/validate-coupon", { couponCode: "SAVE\u0000" }],
      ["confirm", "POST", "/api/confirm-enrollment", { paymentIntentId: "pi_\u0000", courseId: "fixture-basics" }],
      ["payment intent", "POST", "/api/create-payment-intent", { courseId: "fixture-basics\u0085" }],
      ["quiz answer keys", "POST", "/api/quiz/fixture-basics/alpha", { answers: { "q\u0000": "a" } }],
      ["lone surrogate", "POST", "/api/validate-coupon", { couponCode: "SAVE\ud800" }],
      [
        "admin enrol",
        "POST",
        "/api/admin-enroll-user",
        { userEmail: "x\u0000@example.com", courseId: "fixture-basics" },
      ],
    ];
    for (const [label, method, url, payload] of cases) {
      const res = await request(t.app, method, url, { cookie: admin.cookie, payload });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().message, label).toMatch(/control characters/i);
    }
  });

  it("refuses direction-changing and invisible characters, and names with nothing visible, wherever a name or listing is written", async () => {
    const disguised = ["Alice \u202eevil\u202c", "\u200fAda", "Ad\u200ba", "\u200b\u2060", "\u3164"];
    for (const name of disguised) {
      const signUp = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: "192.0.2.77",
        payload: {
          email: `disguise-${disguised.indexOf(name)}@example.com`,
          password: "calm-river-42",
          firstName: name,
          lastName: "X",
        },
      });
      expect(signUp.statusCode, JSON.stringify(name)).toBe(400);
      const profile = await request(t.app, "PUT", "/api/profile", {
        cookie: learner.cookie,
        payload: { firstName: "Ada", lastName: name },
      });
      expect(profile.statusCode, JSON.stringify(name)).toBe(400);
      expect(profile.json().message).toMatch(/Last name (must not contain invisible|needs at least one visible)/);
      const listing = await request(t.app, "PUT", "/api/profile/practitioner", {
        cookie: learner.cookie,
        payload: {
          displayName: `Ada ${name}`,
          region: "Leeds",
          bio: "A calm and careful coach.",
          contactUrl: "https://example.com",
        },
      });
      expect(listing.statusCode, JSON.stringify(name)).toBe(400);
      expect(listing.json().message).toMatch(/Display name/);
    }
    const bio = await request(t.app, "PUT", "/api/profile/practitioner", {
      cookie: learner.cookie,
      payload: {
        displayName: "Ada",
        region: "Leeds",
        bio: "Calm \u202ecoach\u202c here.",
        contactUrl: "https://example.com",
      },
    });
    expect(bio.statusCode).toBe(400);
    const me = await request(t.app, "GET", "/api/auth/user", { cookie: learner.cookie });
    expect(me.json().lastName).toBe("Lovelace");
  });

  it("keeps line breaks, tabs, right-to-left text and emoji where free text is allowed", async () => {
    const res = await request(t.app, "POST", "/api/admin/enrollments/bulk", {
      cookie: admin.cookie,
      payload: { csv: "someone@example.com,fixture-basics\r\nother@example.com,\tfixture-basics\n" },
    });
    expect(res.statusCode).toBe(200);
    const name = await request(t.app, "PUT", "/api/profile", {
      cookie: learner.cookie,
      payload: { firstName: "שרה 🌿", lastName: "Lovelace" },
    });
    expect(name.statusCode).toBe(200);
  });

  it("applies the same rule to Better Auth's routes (sign-up, sign-in, reset)", async () => {
    const cases: [string, unknown][] = [
      [
        "/api/auth/sign-up/email",
        { email: "nul@example.com", password: "calm-river-42", name: "N", firstName: "N\u0000", lastName: "L" },
      ],
      ["/api/auth/sign-up/email", { email: "n\u0000ul@example.com", password: "calm-river-42", name: "N" }],
      ["/api/auth/sign-in/email", { email: "nul\u0000@example.com", password: "calm-river-42" }],
      ["/api/auth/request-password-reset", { email: "nul\u0000@example.com", redirectTo: "/reset-password" }],
      ["/api/auth/reset-password", { token: "abc\u0000", newPassword: "calm-river-42" }],
    ];
    for (const [url, payload] of cases) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { origin: TEST_ORIGIN },
        payload: payload as object,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/control characters/i);
    }
    const res = await t.app.inject({ method: "GET", url: "/api/auth/reset-password/abc%00?callbackURL=%2F" });
    expectRefused(res);
  });
});

describe("the cross-origin check cannot be sidestepped by encoding the path", () => {
  const evil = { origin: "http://evil.example" };
  it.each(["/%61pi/profile", "/api/%70rofile", "/%61%70%69/%70%72%6f%66%69%6c%65", "/api/profile?x=/"])(
    "PUT %s from another origin: 403, and the name is unchanged",
    async (url) => {
      const res = await request(t.app, "PUT", url, {
        cookie: learner.cookie,
        payload: { firstName: "Mallory", lastName: "Evil" },
        headers: evil,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/cross-origin/i);
      const me = await request(t.app, "GET", "/api/auth/user", { cookie: learner.cookie });
      expect(me.json().firstName).not.toBe("Mallory");
    },
  );

  it("refuses a cross-site fetch to an encoded path by Sec-Fetch-Site too", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/%61pi/certificate",
      headers: { cookie: learner.cookie, "sec-fetch-site": "cross-site" },
      payload: { courseId: "fixture-basics" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("still accepts the same encoded request from the app's own origin", async () => {
    const res = await request(t.app, "PUT", "/%61pi/profile", {
      cookie: learner.cookie,
      payload: { firstName: "Ada", lastName: "Lovelace" },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("one set of name rules wherever a name is written", () => {
  const signUp = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: TEST_ORIGIN },
      remoteAddress: "198.51.100.7",
      payload: { password: "calm-river-42", name: "Someone", ...payload },
    });

  it("Better Auth's update-user cannot blank or bloat a name", async () => {
    const user = await signUpUser(t.app, { firstName: "Grace", lastName: "Hopper" });
    for (const payload of [
      { firstName: "" },
      { firstName: " " },
      { lastName: "x".repeat(20_000) },
      { name: "x".repeat(20_000) },
    ]) {
      const res = await request(t.app, "POST", "/api/auth/update-user", { cookie: user.cookie, payload });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(typeof res.json().message).toBe("string");
    }
    const me = await request(t.app, "GET", "/api/auth/user", { cookie: user.cookie });
    expect(me.json()).toMatchObject({ firstName: "Grace", lastName: "Hopper" });
  });

  it("sign-up refuses the names the profile route refuses", async () => {
    const cases: Record<string, unknown>[] = [
      { firstName: " ", lastName: "L" },
      { firstName: "F", lastName: "x".repeat(20_000) },
      { firstName: "A\nB", lastName: "L" },
      { firstName: "F" },
    ];
    for (const [i, names] of cases.entries()) {
      const res = await signUp({ email: `bad-name-${i}@example.com`, ...names });
      expect(res.statusCode, JSON.stringify(names).slice(0, 40)).toBe(400);
      expect(res.json().message).toMatch(/name/i);
      const profile = await request(t.app, "PUT", "/api/profile", { cookie: learner.cookie, payload: names });
      expect(profile.statusCode).toBe(400);
    }
  });

  it("sign-up stores names trimmed, as the profile route does", async () => {
    const res = await signUp({ email: "trimmed@example.com", firstName: "  Grace ", lastName: " Hopper  " });
    expect(res.statusCode).toBe(200);
    const row = await t.testDb.database.db
      .selectFrom("user")
      .select(["firstName", "lastName", "name"])
      .where("email", "=", "trimmed@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ firstName: "Grace", lastName: "Hopper", name: "Grace Hopper" });
  });
});

describe("Better Auth's routes answer odd bodies with a 4xx and a message", () => {
  it.each([
    ["/api/auth/send-verification-email", 100],
    ["/api/auth/sign-up/email", ["a"]],
    ["/api/auth/sign-in/email", "x"],
    ["/api/auth/no-such-endpoint", {}],
  ])("POST %s with %j", async (url, payload) => {
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(typeof res.json().message).toBe("string");
  });
});
