import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { must, nth } from "../setup/must.ts";
import { deliverQueuedMail } from "../setup/outbox.ts";
import { cookieFrom, createTestApp, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";
import { resetLinkIn, startTestSmtp, type TestSmtp, verificationLinkIn } from "../setup/test-smtp.ts";

// Sign-up signs in at once (the spec's flow); proving the address (verification or reset link) ends
// every session and stranger's password opened before the proof, and the admin role of an ADMIN_EMAILS
// address never reaches them (decision 0023).
let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ADMIN_EMAILS: "boss@academy.example,chief@academy.example" },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Mail sent after the responses so far, once it has all been handed to the SMTP server. */
async function mailTo(email: string) {
  await deliverQueuedMail(t.app);
  await expect.poll(() => smtp.inbox.filter((m) => m.to.includes(email)).length).toBeGreaterThan(0);
  return smtp.inbox.filter((m) => m.to.includes(email));
}

const me = async (cookie: string) => (await request(t.app, "GET", "/api/auth/user", { cookie })).json();
const signIn = (email: string, password: string) =>
  request(t.app, "POST", "/api/auth/sign-in/email", { payload: { email, password } });

/** Opens the mailed verification link: from the browser holding `cookie`, or from anywhere else. */
async function openVerificationLink(email: string, cookie?: string) {
  const link = new URL(verificationLinkIn((await mailTo(email)).find((m) => /verify-email/.test(m.raw))!));
  const response = await t.app.inject({
    method: "GET",
    url: link.pathname + link.search,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(302);
  return cookieFrom(response);
}

async function resetPassword(email: string, newPassword: string) {
  await request(t.app, "POST", "/api/auth/request-password-reset", {
    payload: { email, redirectTo: "/reset-password" },
  });
  const mails = (await mailTo(email)).filter((m) => /reset-password\//.test(m.raw));
  const link = new URL(resetLinkIn(must(mails.at(-1), "a reset mail")));
  const open = await request(t.app, "GET", link.pathname + link.search);
  const token = new URL(String(open.headers.location), t.config.appUrl).searchParams.get("token");
  const reset = await request(t.app, "POST", "/api/auth/reset-password", { payload: { token, newPassword } });
  expect(reset.statusCode).toBe(200);
}

describe("sign-up", () => {
  it("signs the new account in at once and still mails the confirmation link", async () => {
    const user = await signUpUser(t.app, { email: "new-at-once@example.com" });
    expect(user.cookie).toContain("session_token");
    expect(await me(user.cookie)).toMatchObject({ email: "new-at-once@example.com", role: "learner" });
    expect((await mailTo(user.email)).some((m) => /verify-email/.test(m.raw))).toBe(true);
  });

  it("refuses a registered address with a message pointing to Sign In and reset, and tells its owner", async () => {
    const owner = await signUpUser(t.app, { email: "taken@example.com", password: "owner-secret-71" });
    await mailTo(owner.email);
    smtp.inbox.length = 0;
    const again = await request(t.app, "POST", "/api/auth/sign-up/email", {
      payload: {
        email: "Taken@example.com",
        password: "other-secret-72",
        name: "Mallory M",
        firstName: "Mallory",
        lastName: "M",
      },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/already exists.*Sign in.*reset/i);
    expect(again.headers["set-cookie"]).toBeUndefined();
    const toOwner = await mailTo(owner.email);
    expect(toOwner).toHaveLength(1);
    expect(nth(toOwner, 0).raw).toMatch(/tried to create/i);
    // The account is untouched: the owner's password works, the stranger's does not.
    expect((await signIn(owner.email, "owner-secret-71")).statusCode).toBe(200);
    expect((await signIn(owner.email, "other-secret-72")).statusCode).toBe(401);
  });
});

/** A stranger signs up first with someone else's address, and is signed in. */
async function strangerClaims(email: string): Promise<TestUser> {
  const stranger = await signUpUser(t.app, { email, password: "strangers-own-pass-1" });
  expect(await me(stranger.cookie)).toMatchObject({ email, role: "learner" });
  return stranger;
}

describe("proving the address ends access opened before the proof", () => {
  it("a verification link opened elsewhere ends the stranger's session and password; the owner is admin", async () => {
    const stranger = await strangerClaims("boss@academy.example");
    const ownerCookie = await openVerificationLink(stranger.email);

    expect(await me(stranger.cookie)).toBeNull();
    expect((await signIn(stranger.email, stranger.password)).statusCode).toBe(401);
    expect(await me(ownerCookie)).toMatchObject({ email: "boss@academy.example", role: "admin" });
    // The owner was mailed a reset link to choose a password of their own; with it, they are admin too.
    await resetPassword(stranger.email, "owners-new-pass-9");
    const owner = await signIn(stranger.email, "owners-new-pass-9");
    expect(owner.statusCode).toBe(200);
    expect(await me(cookieFrom(owner))).toMatchObject({ role: "admin" });
    expect((await signIn(stranger.email, stranger.password)).statusCode).toBe(401);
  });

  it("the same holds for an ordinary account (pre-hijacking)", async () => {
    const stranger = await strangerClaims("ordinary@example.com");
    const ownerCookie = await openVerificationLink(stranger.email);
    expect(await me(stranger.cookie)).toBeNull();
    expect((await signIn(stranger.email, stranger.password)).statusCode).toBe(401);
    expect(await me(ownerCookie)).toMatchObject({ email: "ordinary@example.com", role: "learner" });
  });

  it("a reset link proves the address: the stranger's session and password end, and the address counts as verified", async () => {
    const stranger = await strangerClaims("chief@academy.example");
    await resetPassword(stranger.email, "chiefs-own-pass-3");
    expect(await me(stranger.cookie)).toBeNull();
    expect((await signIn(stranger.email, stranger.password)).statusCode).toBe(401);
    const owner = await signIn(stranger.email, "chiefs-own-pass-3");
    expect(await me(cookieFrom(owner))).toMatchObject({ role: "admin" });
  });

  it("verifying in the browser that signed up keeps the password and replaces the session", async () => {
    const user = await signUpUser(t.app, { email: "self@example.com", password: "my-own-pass-44" });
    const other = await signIn(user.email, user.password);
    const fresh = await openVerificationLink(user.email, user.cookie);
    expect(fresh).toContain("session_token");
    expect(await me(fresh)).toMatchObject({ email: "self@example.com" });
    // Sessions opened before the proof end, even the one that proved it (it is replaced).
    expect(await me(user.cookie)).toBeNull();
    expect(await me(cookieFrom(other))).toBeNull();
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
  });
});
