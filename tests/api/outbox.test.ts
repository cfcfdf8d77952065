import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import type { JobRunner } from "#server/jobs/job-runner.ts";
import { enqueueEmail, OUTBOX_BACKOFF_BASE_MS, OUTBOX_MAX_ATTEMPTS, OUTBOX_PAGE } from "#server/mail/outbox.ts";
import { must } from "../setup/must.ts";
import { deliverQueuedMail, sendOutbox } from "../setup/outbox.ts";
import {
  cookieFrom,
  createTestApp,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  type TestUser,
} from "../setup/test-app.ts";
import { startTestSmtp, type TestSmtp, verificationLinkIn } from "../setup/test-smtp.ts";

// The outbox (decision 0050) in front of a real SMTP server that refuses some recipients: 550 (no such
// mailbox, permanent) for `nobody-*`, 451 (try later) for `busy-*`. The app's own sender job is
// replaced by turns the tests run themselves, so each turn's work is known.
const manualJobs = (): JobRunner => ({ every() {}, start: async () => {}, stop: async () => {} });
let t: TestApp;
let smtp: TestSmtp;
let admin: TestUser;

beforeAll(async () => {
  smtp = await startTestSmtp({
    refuse: (address) =>
      address.startsWith("nobody-")
        ? { code: 550, message: "5.1.1 No such mailbox" }
        : address.startsWith("busy-")
          ? { code: 451, message: "4.2.1 Mailbox busy, try later" }
          : undefined,
  });
  t = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ADMIN_EMAILS: "postmaster@academy.example" },
    createJobs: () => manualJobs,
  });
  admin = await signUpUser(t.app, { email: "postmaster@academy.example" });
  await deliverQueuedMail(t.app);
  const link = new URL(
    verificationLinkIn(
      must(
        smtp.inbox.find((m) => m.to.includes(admin.email)),
        "verification",
      ),
    ),
  );
  const proof = await t.app.inject({
    method: "GET",
    url: link.pathname + link.search,
    headers: { cookie: admin.cookie },
  });
  admin.cookie = cookieFrom(proof) || admin.cookie;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const db = () => t.testDb.database.db;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const queue = (to: string, at = new Date()) =>
  enqueueEmail(db(), { to, template: "sign-in-paused", data: { failures: 10, minutes: 15, signInUrl: "x" } }, at);
const rowsTo = (prefix: string) =>
  db().selectFrom("outboxEmail").selectAll().where("toAddress", "like", `${prefix}%`).orderBy("toAddress").execute();
const inboxTo = (address: string) => smtp.inbox.filter((m) => m.to.includes(address));

describe("the outbox's sender", () => {
  it("sends the good messages behind more than a page of refused ones in one turn; a 550 fails at once with its reason", async () => {
    const run = Date.now();
    // Refused addresses first in the queue (older), more of them than one page holds.
    for (let i = 0; i < 30; i++) await queue(`nobody-${run}-${i}@example.com`, minutesAgo(10));
    for (let i = 0; i < 30; i++) await queue(`busy-${run}-${i}@example.com`, minutesAgo(10));
    for (let i = 0; i < 5; i++) await queue(`good-${run}-${i}@example.com`, minutesAgo(1));
    expect(60 + 5).toBeGreaterThan(OUTBOX_PAGE);

    const turn = await sendOutbox(t.app);
    expect(turn).toMatchObject({ sent: 5, failed: 30, retrying: 30 });
    for (let i = 0; i < 5; i++) expect(inboxTo(`good-${run}-${i}@example.com`)).toHaveLength(1);
    const refused = await rowsTo(`nobody-${run}-`);
    expect(refused.map((r) => r.status)).toEqual(Array(30).fill("failed"));
    expect(refused[0]?.lastError).toMatch(/550/);
    const busy = await rowsTo(`busy-${run}-`);
    expect(busy.map((r) => [r.status, Number(r.attempts)])).toEqual(Array(30).fill(["queued", 1]));
    expect(busy[0]?.lastError).toMatch(/451/);
    // The next turn finds nothing due: the busy ones wait out their back-off, nothing is sent twice.
    expect(await sendOutbox(t.app)).toEqual({ sent: 0, retrying: 0, failed: 0, skipped: 0 });
    for (let i = 0; i < 5; i++) expect(inboxTo(`good-${run}-${i}@example.com`)).toHaveLength(1);
  });

  it("waits 1, 2, 4, 8, 16 minutes between attempts, then moves the message to failed with the reason", async () => {
    const address = `busy-backoff-${Date.now()}@example.com`;
    await queue(address);
    const row = async () => must((await rowsTo(address))[0], "the row");
    let at = Date.now();
    await sendOutbox(t.app, at);
    for (let attempt = 1; attempt < OUTBOX_MAX_ATTEMPTS; attempt++) {
      const waiting = await row();
      expect(Number(waiting.attempts)).toBe(attempt);
      expect(waiting.status).toBe("queued");
      const wait = OUTBOX_BACKOFF_BASE_MS * 2 ** (attempt - 1);
      expect(new Date(waiting.nextAttemptAt).getTime()).toBe(at + wait);
      // One millisecond early: not yet due.
      await sendOutbox(t.app, at + wait - 1);
      expect(Number((await row()).attempts)).toBe(attempt);
      at += wait;
      await sendOutbox(t.app, at);
    }
    const failed = await row();
    expect(failed.status).toBe("failed");
    expect(Number(failed.attempts)).toBe(OUTBOX_MAX_ATTEMPTS);
    expect(failed.lastError).toMatch(/451 4\.2\.1 Mailbox busy/);
    expect(inboxTo(address)).toHaveLength(0);
  });

  it("skips a reminder whose holder unsubscribed after it was queued", async () => {
    const holder = await signUpUser(t.app);
    await enqueueEmail(db(), {
      to: holder.email,
      userId: holder.id,
      topic: "certificate-reminders",
      template: "sign-in-paused",
      data: { failures: 10, minutes: 15, signInUrl: "x" },
    });
    await db()
      .insertInto("emailOptOut")
      .values({ userId: holder.id, topic: "certificate-reminders", createdAt: new Date().toISOString() })
      .execute();
    await deliverQueuedMail(t.app);
    const row = (await rowsTo(holder.email)).find((r) => r.template === "sign-in-paused");
    expect(row?.status).toBe("skipped");
    expect(row?.lastError).toMatch(/Unsubscribed/);
    expect(inboxTo(holder.email).filter((m) => /paused/i.test(m.raw))).toHaveLength(0);
  });
});

describe("a crash between writing and sending", () => {
  it("sends a message queued by a process that died before its sender ran, once, after the restart", async () => {
    // The dying instance: it answers a reset request (the mail is queued) and has no sender running.
    const dying = await buildApp({
      config: t.config,
      database: t.testDb.database,
      clientDir: `${t.testDb.dir}/no-client`,
      createJobs: manualJobs,
    });
    await dying.ready();
    const user = await signUpUser(dying);
    const asked = await dying.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: { origin: TEST_ORIGIN },
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    expect(asked.statusCode).toBe(200);
    await dying.deps.background.idle();
    // A second message was claimed by a process that died while sending it (its claim has run out).
    const claimedAddress = `claimed-${Date.now()}@example.com`;
    await queue(claimedAddress);
    await db()
      .updateTable("outboxEmail")
      .set({ status: "sending", nextAttemptAt: new Date(Date.now() - 1).toISOString() })
      .where("toAddress", "=", claimedAddress)
      .execute();
    await dying.close();
    const resets = () => inboxTo(user.email).filter((m) => /reset-password\//.test(m.raw));
    expect(resets()).toHaveLength(0);

    // The restart: an instance with the real job runner on the same database.
    const restarted = await buildApp({
      config: t.config,
      database: t.testDb.database,
      clientDir: `${t.testDb.dir}/no-client`,
    });
    await restarted.ready();
    try {
      await expect.poll(() => resets().length).toBe(1);
      await expect.poll(() => inboxTo(claimedAddress).length).toBe(1);
      const turns = async () =>
        Number(
          (await db().selectFrom("scheduledJob").select("runs").where("name", "=", "email-outbox").executeTakeFirst())
            ?.runs ?? 0,
        );
      const after = await turns();
      await expect.poll(turns).toBeGreaterThanOrEqual(after + 3);
      expect(resets()).toHaveLength(1);
      expect(inboxTo(claimedAddress)).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });
});

describe("the Outbox page's API", () => {
  it("lists messages by status with their subject, shows one rendered, and retries a failed one (audited)", async () => {
    const address = `nobody-page-${Date.now()}@example.com`;
    await queue(address);
    await sendOutbox(t.app);
    const failed = (
      await request(t.app, "GET", "/api/admin/outbox?status=failed&pageSize=100", { cookie: admin.cookie })
    ).json();
    const item = must(
      failed.items.find((i: { toAddress: string }) => i.toAddress === address),
      "the failed message",
    );
    expect(item).toMatchObject({ status: "failed", attempts: 1, template: "sign-in-paused" });
    expect(item.subject).toMatch(/paused/i);
    expect(item.lastError).toMatch(/550/);
    expect(failed.counts.failed).toBeGreaterThanOrEqual(1);

    const shown = (await request(t.app, "GET", `/api/admin/outbox/${item.id}`, { cookie: admin.cookie })).json();
    expect(shown.html).toContain("<html");
    expect(shown.text).toMatch(/10 failed sign-in attempts|sign-in/i);

    const retried = await request(t.app, "POST", `/api/admin/outbox/${item.id}/retry`, { cookie: admin.cookie });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: "queued", attempts: 0 });
    const queued = (
      await request(t.app, "GET", "/api/admin/outbox?status=queued&pageSize=100", { cookie: admin.cookie })
    ).json();
    expect(queued.items.map((i: { id: string }) => i.id)).toContain(item.id);
    const audit = (await request(t.app, "GET", "/api/admin/audit?q=outbox.retry", { cookie: admin.cookie })).json();
    expect(audit.items.some((e: { target: string }) => e.target === item.id)).toBe(true);

    // A sent message cannot be retried; a missing one is 404; a bad id is 400; learners are refused.
    await sendOutbox(t.app);
    const sent = must(
      (await request(t.app, "GET", "/api/admin/outbox?status=sent&pageSize=100", { cookie: admin.cookie }))
        .json()
        .items.find((i: { toAddress: string }) => i.toAddress === admin.email),
      "a sent message",
    );
    expect(
      (await request(t.app, "POST", `/api/admin/outbox/${sent.id}/retry`, { cookie: admin.cookie })).statusCode,
    ).toBe(409);
    expect(
      (await request(t.app, "GET", "/api/admin/outbox/00000000-0000-4000-8000-000000000000", { cookie: admin.cookie }))
        .statusCode,
    ).toBe(404);
    expect((await request(t.app, "GET", "/api/admin/outbox/not-an-id", { cookie: admin.cookie })).statusCode).toBe(404);
    expect((await request(t.app, "GET", "/api/admin/outbox?status=lost", { cookie: admin.cookie })).statusCode).toBe(
      400,
    );
    const learner = await signUpUser(t.app);
    expect((await request(t.app, "GET", "/api/admin/outbox", { cookie: learner.cookie })).statusCode).toBe(403);
    expect(
      (await request(t.app, "POST", `/api/admin/outbox/${item.id}/retry`, { cookie: learner.cookie })).statusCode,
    ).toBe(403);
  });
});
