import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nth } from "../setup/must.ts";
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

/** Waits until the sign-up's confirmation e-mail (sent after the response) has been delivered. */
async function confirmationDelivered(email: string) {
  await smtp.until(() => {
    release();
    return delivered.some((m) => m.to.includes(email));
  });
}

// Sign-up refuses a registered address openly (the spec's flow, decision 0023: tests/api/address-proof.test.ts);
// password reset still never tells.
describe("password reset does not reveal which addresses are registered", () => {
  // Every wait ends on the mail itself (the SMTP server's events), bounded only by the test's timeout:
  // a loaded machine makes it slower, never wrong.
  it("answers a reset request before its e-mail is delivered, for known and unknown addresses alike", async () => {
    release();
    const user = await signUpUser(t.app, { email: `reset-me-${Date.now()}@example.com` });
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
    await smtp.until(() => smtp.held() === 1);
    release();
    await smtp.until(() => delivered.length === 1);
    expect(nth(delivered, 0).to).toEqual([user.email]);
  });
});
