import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieFrom,
  createTestApp,
  enrol,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  verifyEmail,
} from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "Boss@Example.com" } });
});
afterAll(async () => t?.close());

describe("safe API defaults", () => {
  it("answers an unknown /api path with a JSON 404", async () => {
    const res = await request(t.app, "GET", "/api/no-such-thing");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Not found" });
  });

  it("refuses malformed JSON with 400 and a message", async () => {
    const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", {
      payload: "{bad json",
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/);
    expect(res.body).not.toMatch(/at .*\.ts/);
  });

  it("refuses a compressed request body with 400 and a message: no client of ours sends one", async () => {
    const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", {
      payload: gzipSync(JSON.stringify({ attemptId: "x", answers: {} })),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/JSON/);
  });

  it("refuses wrong types with 400", async () => {
    const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", { payload: { answers: "all of them" } });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe("string");
  });

  it("refuses unknown fields with 400", async () => {
    const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", {
      payload: { answers: {}, score: 100 },
    });
    expect(res.statusCode).toBe(400);
  });

  it("refuses a body over 1 MB with 413", async () => {
    const big = JSON.stringify({ answers: { q1: "a".repeat(1024 * 1024 + 10) } });
    const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", {
      payload: big,
      headers: { "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/);
  });

  it("refuses a non-JSON content type with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await request(t.app, "POST", "/api/quiz/fixture-basics/alpha", {
        payload: "answers=1",
        headers: { "content-type": type },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toMatch(/content type/i);
    }
  });

  it("sends security headers: CSP without inline script, nosniff, no framing, referrer policy", async () => {
    const res = await request(t.app, "GET", "/api/courses");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("refuses state-changing requests from another origin", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/quiz/fixture-basics/alpha",
      headers: { origin: "https://evil.example" },
      payload: { answers: {} },
    });
    expect(res.statusCode).toBe(403);
    const signUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: "https://evil.example" },
      payload: { email: "csrf@example.com", password: "calm-river-42", name: "x", firstName: "C", lastName: "S" },
    });
    expect(signUp.statusCode).toBe(403);
  });

  it("compresses large responses", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/courses/fixture-basics",
      headers: { "accept-encoding": "gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
  });

  it("sends course pages compressed as the browser prefers, the same page once unpacked; a small course list as it is", async () => {
    const learner = await signUpUser(t.app);
    await enrol(t, learner, "fixture-basics");
    const ask = (url: string, acceptEncoding?: string, cookie?: string) =>
      request(t.app, "GET", url, {
        ...(cookie ? { cookie } : {}),
        headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
      });
    for (const cookie of [undefined, learner.cookie]) {
      const plain = await ask("/api/courses/fixture-basics", undefined, cookie);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toBe("accept-encoding");
      for (const [accept, coding, unpack] of [
        ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
        ["br;q=0.5, gzip", "gzip", gunzipSync],
        ["x-gzip", "gzip", gunzipSync],
        ["*", "br", brotliDecompressSync],
      ] as const) {
        // Twice: a visitor's second answer comes from what the first compressed.
        for (const _ of [1, 2]) {
          const packed = await ask("/api/courses/fixture-basics", accept, cookie);
          expect(packed.headers["content-encoding"]).toBe(coding);
          expect(packed.headers.vary).toBe("accept-encoding");
          expect(unpack(packed.rawPayload).toString()).toBe(plain.body);
        }
      }
      const refused = await ask("/api/courses/fixture-basics", "br;q=0, gzip;q=0, identity", cookie);
      expect(refused.headers["content-encoding"]).toBeUndefined();
      expect(refused.body).toBe(plain.body);
    }
    // The enrolled page is the learner's own, not the visitor's.
    const visitor = brotliDecompressSync((await ask("/api/courses/fixture-basics", "br")).rawPayload).toString();
    const enrolled = brotliDecompressSync(
      (await ask("/api/courses/fixture-basics", "br", learner.cookie)).rawPayload,
    ).toString();
    expect(JSON.parse(enrolled).enrolled).toBe(true);
    expect(JSON.parse(visitor).enrolled).toBe(false);
    // Under 1 kB an answer is not worth compressing (the fixtures' two-course list is).
    const list = await ask("/api/courses", "br, gzip");
    expect(list.rawPayload.length).toBeLessThan(1024);
    expect(list.headers["content-encoding"]).toBeUndefined();
    expect(list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: "fixture-basics" })]));
  });
});

describe("accounts", () => {
  it("signs up with names and is signed in at once, the session in an HTTP-only Lax cookie", async () => {
    const res = await request(t.app, "POST", "/api/auth/sign-up/email", {
      payload: {
        email: "ada@example.com",
        password: "calm-river-42",
        name: "Ada Lovelace",
        firstName: "Ada",
        lastName: "Lovelace",
      },
    });
    expect(res.statusCode).toBe(200);
    const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []).join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/);
    const cookie = cookieFrom(res);
    const me = await request(t.app, "GET", "/api/auth/user", { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: expect.any(String),
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      nameOrder: "given-first",
      role: "learner",
    });
  });

  it("refuses a password shorter than 6 characters and the most common passwords", async () => {
    const short = await request(t.app, "POST", "/api/auth/sign-up/email", {
      payload: { email: "s@example.com", password: "ab1", name: "S", firstName: "S", lastName: "S" },
    });
    expect(short.statusCode).toBe(400);
    for (const password of ["password", "123456", "qwerty123", "iloveyou"]) {
      const res = await request(t.app, "POST", "/api/auth/sign-up/email", {
        payload: { email: `c-${password}@example.com`, password, name: "C", firstName: "C", lastName: "C" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/most common passwords/);
    }
  });

  it("requires first and last name", async () => {
    const res = await request(t.app, "POST", "/api/auth/sign-up/email", {
      payload: { email: "n@example.com", password: "calm-river-42", name: "N", firstName: " ", lastName: "N" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/First name/);
  });

  it("signs in, signs out, and reads as a visitor afterwards", async () => {
    const user = await signUpUser(t.app);
    const signIn = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = ([] as string[])
      .concat(signIn.headers["set-cookie"] ?? [])
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await request(t.app, "GET", "/api/auth/user", { cookie })).json().email).toBe(user.email);
    const out = await request(t.app, "POST", "/api/auth/sign-out", { cookie, payload: {} });
    expect(out.statusCode).toBe(200);
    const after = await request(t.app, "GET", "/api/auth/user", { cookie });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toBeNull();
    expect((await request(t.app, "GET", "/api/enrollments", { cookie })).statusCode).toBe(401);
  });

  it("answers a wrong password and an unknown e-mail alike", async () => {
    const user = await signUpUser(t.app);
    const wrong = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: user.email, password: "not-the-password" },
    });
    const unknown = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: "nobody-here@example.com", password: "not-the-password" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  it("gives the admin role to a verified ADMIN_EMAILS address, and the x-user-email header grants nothing", async () => {
    const boss = await signUpUser(t.app, { email: "boss@example.com" });
    await verifyEmail(t, boss);
    expect((await request(t.app, "GET", "/api/auth/user", { cookie: boss.cookie })).json().role).toBe("admin");
    const learner = await signUpUser(t.app);
    const spoof = await request(t.app, "GET", "/api/auth/user", {
      cookie: learner.cookie,
      headers: { "x-user-email": "boss@example.com" },
    });
    expect(spoof.json().role).toBe("learner");
    expect(spoof.json().email).toBe(learner.email);
    const anonymous = await request(t.app, "GET", "/api/auth/user", {
      headers: { "x-user-email": "boss@example.com" },
    });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toBeNull();
  });

  it("exposes public settings without secrets", async () => {
    const res = await request(t.app, "GET", "/api/config");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      storeUrl: null,
      practitionerAppUrl: null,
      marketplaceUrl: null,
      supportEmail: "support@wellness-academy.example",
    });
    expect(Object.keys(res.json()).sort()).toEqual([
      "content",
      "marketplaceUrl",
      "practitionerAppUrl",
      "storeUrl",
      "supportEmail",
    ]);
    expect(res.body).not.toContain("test-secret");
  });
});

describe("origin", () => {
  it("uses the configured origin", () => {
    expect(TEST_ORIGIN).toBe(t.config.appUrl);
  });
});
