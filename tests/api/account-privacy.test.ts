import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, signUpUser, type TestApp } from "../setup/test-app.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

let t: TestApp;
let smtp: TestSmtp;
let delivered: TestSmtp["inbox"];
// The SMTP server holds every message until released, so a test can tell whether an answer waited for it.
const release = () => smtp.release();
beforeAll(async () => {
  smtp = await startTestSmtp({ hold: true });
  delivered = smtp.inbox;
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const signUp = (email: string, password: string, firstName = "Ada") =>
  request(t.app, "POST", "/api/auth/sign-up/email", {
    payload: { email, password, name: `${firstName} L`, firstName, lastName: "Lovelace" },
  });
const shape = (body: { token: unknown; user: Record<string, unknown> }) => ({
  token: body.token,
  userFields: Object.keys(body.user).sort(),
  email: body.user.email,
});

/** Waits until the sign-up's confirmation e-mail (sent after the response) has been delivered. */
async function confirmationDelivered(email: string) {
  await expect
    .poll(() => {
      release();
      return delivered.some((m) => m.to.includes(email));
    })
    .toBe(true);
}

describe("sign-up does not reveal which addresses are registered", () => {
  it("answers a sign-up for a registered address exactly like a new one, and tells the owner by e-mail", async () => {
    release();
    const owner = await signUpUser(t.app, { email: "owner@example.com", password: "owner-secret-71" });
    await confirmationDelivered(owner.email);
    delivered.length = 0;

    const fresh = await signUp("newcomer@example.com", "other-secret-72");
    const again = await signUp(owner.email, "other-secret-72", "Mallory");
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(fresh.statusCode).toBe(200);
    expect(shape(again.json())).toEqual({ ...shape(fresh.json()), email: owner.email });
    expect(again.headers["set-cookie"] ?? []).toEqual([]);
    expect(fresh.headers["set-cookie"] ?? []).toEqual([]);

    await expect
      .poll(() => {
        release();
        return delivered.length;
      })
      .toBe(2);
    const toOwner = delivered.find((m) => m.to.includes(owner.email));
    expect(toOwner?.raw).toMatch(/tried to create/i);
    const toNewcomer = delivered.find((m) => m.to.includes("newcomer@example.com"));
    expect(toNewcomer?.raw).toMatch(/verify-email/);

    // The existing account is untouched: its own password still works, the newcomer's does not.
    const signIn = (password: string) =>
      request(t.app, "POST", "/api/auth/sign-in/email", { payload: { email: owner.email, password } });
    expect((await signIn("owner-secret-71")).statusCode).toBe(200);
    expect((await signIn("other-secret-72")).statusCode).toBe(401);
    const me = await request(t.app, "GET", "/api/auth/user", { cookie: owner.cookie });
    expect(me.json().firstName).toBe("Test");
  });

  it("answers a reset request before its e-mail is delivered, for known and unknown addresses alike", async () => {
    release();
    const user = await signUpUser(t.app, { email: "reset-me@example.com" });
    await confirmationDelivered(user.email);
    delivered.length = 0;
    // The SMTP server holds the message: an answer that waited for the mail would never come.
    const known = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    const unknown = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: "nobody-here@example.com", redirectTo: "/reset-password" },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(delivered).toEqual([]);
    await expect.poll(() => smtp.held()).toBe(1);
    release();
    await expect.poll(() => delivered.length).toBe(1);
    expect(delivered[0].to).toEqual([user.email]);
  });
});
