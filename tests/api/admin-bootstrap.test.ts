import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestApp,
  request,
  signUpUser,
  type TestApp,
  verificationLinkFor,
  verifyEmail,
} from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
});
afterAll(async () => t?.close());

const role = async (cookie: string) => (await request(t.app, "GET", "/api/auth/user", { cookie })).json().role;
const adminStatus = async (cookie: string) =>
  (await request(t.app, "GET", "/api/admin/coupons", { cookie })).statusCode;

describe("admin bootstrap by a verified e-mail", () => {
  it("signing up first with an ADMIN_EMAILS address grants nothing until the address is verified", async () => {
    const owner = await signUpUser(t.app, { email: "owner@academy.example" });
    expect(await role(owner.cookie)).toBe("learner");
    expect(await adminStatus(owner.cookie)).toBe(403);
    // The link was mailed at sign-up; opening it proves the address.
    const verified = await verifyEmail(t, owner);
    expect(verified.statusCode).toBe(302);
    expect(await role(owner.cookie)).toBe("admin");
    expect(await adminStatus(owner.cookie)).toBe(200);
  });

  it("learners get a verification e-mail too, and can learn and buy without verifying", async () => {
    const learner = await signUpUser(t.app);
    expect(await verificationLinkFor(t, learner.email)).toMatch(/^\/api\/auth\/verify-email\?token=/);
    const intent = await request(t.app, "POST", "/api/create-payment-intent", {
      cookie: learner.cookie,
      payload: { courseId: "fixture-basics" },
    });
    expect(intent.statusCode).toBe(200);
    expect(
      (await request(t.app, "GET", "/api/courses/fixture-basics/lessons/alpha-one", { cookie: learner.cookie }))
        .statusCode,
    ).toBe(200);
    await verifyEmail(t, learner);
    expect(await role(learner.cookie)).toBe("learner");
  });

  it("a verification link for one address cannot make another account admin", async () => {
    const stranger = await signUpUser(t.app);
    const link = (await verificationLinkFor(t, stranger.email))!;
    const tampered = link.replace(/token=[^&]+/, "token=not-a-real-token");
    await t.app.inject({ method: "GET", url: tampered, headers: { cookie: stranger.cookie } });
    expect(await role(stranger.cookie)).toBe("learner");
  });
});
