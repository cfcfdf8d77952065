import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";

let t: TestApp;
let learner: TestUser;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  learner = await signUpUser(t.app);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t?.close());

/** `{"a":{"a":...}}` or `[[...]]`, `levels` deep, built as text (JSON.stringify would itself overflow). */
function bomb(levels: number, shape: "object" | "array" = "object", inside = '"x"'): string {
  return shape === "object"
    ? '{"email":"a@example.com","password":"calm-river-42","x":' +
        '{"a":'.repeat(levels - 1) +
        inside +
        "}".repeat(levels)
    : "[".repeat(levels) + inside + "]".repeat(levels);
}

function post(path: string, body: string, cookie?: string) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { origin: TEST_ORIGIN, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body,
  });
}

async function expectTooDeep(response: Response) {
  expect(response.status).toBe(400);
  expect((await response.json()).message).toMatch(/nested too deeply/i);
}

describe("JSON bodies nested deeper than 32 levels are refused before any other work", () => {
  it("100,000 levels to sign-up, 25,000 to the coupon check, 15,000 to sign-in: 400 with a message", async () => {
    await expectTooDeep(await post("/api/auth/sign-up/email", bomb(100_000)));
    await expectTooDeep(await post("/api/validate-coupon", bomb(25_000, "array"), learner.cookie));
    await expectTooDeep(await post("/api/auth/sign-in/email", bomb(15_000)));
  });

  it("GET /healthz answers while a bomb is being refused", async () => {
    const bombs = Array.from({ length: 4 }, () => post("/api/auth/sign-up/email", bomb(100_000)));
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    for (const response of await Promise.all(bombs)) await expectTooDeep(response);
  });

  it("refuses a bomb on every kind of route: signed-in writes, the Stripe webhook, the auth bridge", async () => {
    const profile = await fetch(`${base}/api/profile`, {
      method: "PUT",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json", cookie: learner.cookie },
      body: bomb(40),
    });
    await expectTooDeep(profile);
    await expectTooDeep(await post("/api/stripe/webhook", bomb(5_000, "array")));
    await expectTooDeep(await post("/api/auth/request-password-reset", bomb(33, "array")));
  });

  it("counts only real nesting: 32 levels pass on to the route, brackets inside strings do not count", async () => {
    const at32 = await post("/api/validate-coupon", bomb(32, "array"), learner.cookie);
    expect(at32.status).toBe(400);
    expect((await at32.json()).message).not.toMatch(/nested too deeply/i);
    const inString = await post(
      "/api/validate-coupon",
      JSON.stringify({ couponCode: `${"[{".repeat(5_000)}\\"` }),
      learner.cookie,
    );
    expect((await inString.json()).message ?? "").not.toMatch(/nested too deeply/i);
    expect(inString.status).toBeLessThan(500);
  });
});
