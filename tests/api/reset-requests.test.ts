import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverQueuedMail } from "../setup/outbox.ts";
import { createTestApp, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";
import { startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

// Reset requests answer known and unknown addresses after the same work (nothing that depends on the
// address happens before the answer), and one inbox gets at most 3 reset mails an hour.
let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let client = 0;
/** A reset request from an address of its own, so the per-client limit never trips here. */
const askReset = (email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    headers: { origin: TEST_ORIGIN },
    remoteAddress: `198.51.100.${++client}`,
    payload: { email, redirectTo: "/reset-password" },
  });
const resetMailsTo = (email: string) =>
  smtp.inbox.filter((m) => m.to.includes(email) && /reset-password\//.test(m.raw));

describe("password reset requests", () => {
  it("mails one account at most 3 reset links an hour, whoever asks", async () => {
    const user = await signUpUser(t.app);
    for (let i = 0; i < 6; i++) expect((await askReset(user.email)).statusCode).toBe(200);
    await deliverQueuedMail(t.app);
    await expect.poll(() => resetMailsTo(user.email).length).toBe(3);
    // Every answer is the same, and the limit per client (5 a minute) still holds.
    const fromOneClient = (email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/request-password-reset",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: "203.0.113.77",
        payload: { email },
      });
    const answers = new Set<string>();
    for (let i = 0; i < 5; i++) answers.add((await fromOneClient(`nobody-${i}@example.com`)).body);
    expect(answers.size).toBe(1);
    const sixth = await fromOneClient("nobody@example.com");
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/Too many requests/);
  });

  it("refuses a bad address or an outside redirect with 400 and a message", async () => {
    const bad = await askReset("not-an-address");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    const outside = await t.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: { origin: TEST_ORIGIN },
      payload: { email: "someone@example.com", redirectTo: "https://evil.example/steal" },
    });
    expect(outside.statusCode).toBe(400);
  });

  // On PostgreSQL the work for a known address (storing its token) and for an unknown one (a look-up)
  // both touch the verification table; with that table locked, an answer that waited for either work
  // could not come. Both come: nothing address-dependent happens before answering.
  it.skipIf(testEngine !== "postgres")(
    "answers known and unknown addresses without waiting for their work",
    async () => {
      const user = await signUpUser(t.app);
      await deliverQueuedMail(t.app);
      const locker = new pg.Client({
        connectionString: process.env.TEST_DATABASE_URL,
        options: `-c search_path=${t.testDb.schema}`,
      });
      await locker.connect();
      try {
        await locker.query("begin");
        await locker.query("lock table verification in access exclusive mode");
        const known = await askReset(user.email);
        const unknown = await askReset("nobody-locked@example.com");
        expect(known.statusCode).toBe(200);
        expect(unknown.body).toBe(known.body);
        expect(resetMailsTo(user.email)).toEqual([]);
      } finally {
        await locker.query("rollback");
        await locker.end();
      }
      await deliverQueuedMail(t.app);
      await expect.poll(() => resetMailsTo(user.email).length).toBe(1);
    },
  );
});
