import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nth } from "../setup/must.ts";
import { createTestApp, request, signUpUser, type TestApp } from "../setup/test-app.ts";
import { resetLinkIn as resetLink, startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

let t: TestApp;
let smtp: TestSmtp;
let inbox: TestSmtp["inbox"];

beforeAll(async () => {
  smtp = await startTestSmtp();
  inbox = smtp.inbox;
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A new learner, once the sign-up's confirmation e-mail (sent after the response) has arrived and been cleared. */
async function signedUpWithEmptyInbox() {
  const user = await signUpUser(t.app);
  await expect.poll(() => inbox.some((m) => m.to.includes(user.email))).toBe(true);
  inbox.length = 0;
  return user;
}

describe("password reset by e-mail", () => {
  it("answers alike for known and unknown e-mails, and mails only the known one", async () => {
    const user = await signedUpWithEmptyInbox();
    const known = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    const unknown = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: "nobody@example.com", redirectTo: "/reset-password" },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await expect.poll(() => inbox.length).toBe(1);
    expect(nth(inbox, 0).to).toEqual([user.email]);
  });

  it("resets with a single-use link that expires within an hour and ends every session", async () => {
    const user = await signedUpWithEmptyInbox();
    await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    await expect.poll(() => inbox.length).toBe(1);
    const link = new URL(resetLink(nth(inbox, 0)));

    const row = await t.testDb.database.db
      .selectFrom("verification")
      .select(["expiresAt"])
      .where("identifier", "like", "reset-password:%")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    const expiresInMs = new Date(row.expiresAt).getTime() - Date.now();
    expect(expiresInMs).toBeGreaterThan(0);
    expect(expiresInMs).toBeLessThanOrEqual(60 * 60 * 1000);

    // Opening the link leads to our page with the token.
    const open = await request(t.app, "GET", link.pathname + link.search);
    expect(open.statusCode).toBe(302);
    const landing = new URL(String(open.headers.location), t.config.appUrl);
    expect(landing.pathname).toBe("/reset-password");
    const token = landing.searchParams.get("token");
    expect(token).toBeTruthy();

    const reset = await request(t.app, "POST", "/api/auth/reset-password", {
      payload: { token, newPassword: "new-quiet-forest-7" },
    });
    expect(reset.statusCode).toBe(200);

    // The old session is gone, the old password refused, the new one works.
    expect((await request(t.app, "GET", "/api/auth/user", { cookie: user.cookie })).json()).toBeNull();
    const old = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: user.email, password: user.password },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: user.email, password: "new-quiet-forest-7" },
    });
    expect(fresh.statusCode).toBe(200);

    // The link works once.
    const again = await request(t.app, "POST", "/api/auth/reset-password", {
      payload: { token, newPassword: "another-pass-99" },
    });
    expect(again.statusCode).toBe(400);
  });

  it("refuses a reset link whose hour has passed, and the password stays", async () => {
    const user = await signedUpWithEmptyInbox();
    await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    await expect.poll(() => inbox.length).toBe(1);
    const link = new URL(resetLink(nth(inbox, 0)));
    const open = await request(t.app, "GET", link.pathname + link.search);
    const token = new URL(String(open.headers.location), t.config.appUrl).searchParams.get("token");
    expect(token).toBeTruthy();

    await t.testDb.database.db
      .updateTable("verification")
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where("identifier", "=", `reset-password:${token}`)
      .execute();
    const reset = await request(t.app, "POST", "/api/auth/reset-password", {
      payload: { token, newPassword: "late-quiet-forest-8" },
    });
    expect(reset.statusCode).toBe(400);
    const signIn = await request(t.app, "POST", "/api/auth/sign-in/email", {
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it("refuses a common password on reset", async () => {
    const user = await signedUpWithEmptyInbox();
    await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    await expect.poll(() => inbox.length).toBe(1);
    const open = await request(
      t.app,
      "GET",
      new URL(resetLink(nth(inbox, 0))).pathname + new URL(resetLink(nth(inbox, 0))).search,
    );
    const token = new URL(String(open.headers.location), t.config.appUrl).searchParams.get("token");
    const res = await request(t.app, "POST", "/api/auth/reset-password", {
      payload: { token, newPassword: "password1" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/most common passwords/);
  });
});
