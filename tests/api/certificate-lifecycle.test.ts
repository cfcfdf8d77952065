import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { sweepCertificateReminders } from "#server/modules/certificates/certificate-reminders.ts";
import { CourseCatalogue } from "#server/modules/courses/course-catalogue.ts";
import { takeAssessment } from "../setup/assessments.ts";
import { verifyCredentialAsWallet } from "../setup/credential-verifier.ts";
import { giveCertificate, newLearner } from "../setup/factories.ts";
import { must, nth } from "../setup/must.ts";
import { expectValidAchievementCredential } from "../setup/open-badges-schema.ts";
import { cookieFrom, createTestApp, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";
import { type ReceivedMail, startTestSmtp, type TestSmtp, verificationLinkIn } from "../setup/test-smtp.ts";

const DAY = 86_400_000;
let t: TestApp;
let smtp: TestSmtp;
let second: { app: FastifyInstance; database: Database };
let admin: TestUser;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CERTIFICATE_REMINDER_SWEEP_SECONDS: "1",
      ADMIN_EMAILS: "registrar@academy.example",
    },
  });
  // A second app instance on the same database (its own connection, job runner and catalogue).
  const database = openDatabase(t.testDb.url, t.testDb.schema ? { schema: t.testDb.schema, poolSize: 3 } : {});
  const app = await buildApp({ config: t.config, database, clientDir: `${t.testDb.dir}/no-client` });
  await app.ready();
  second = { app, database };
  admin = await signUpUser(t.app, { email: "registrar@academy.example" });
  while (!smtp.inbox.some((m) => m.to.includes(admin.email))) await new Promise((r) => setTimeout(r, 100));
  const link = new URL(verificationLinkIn(smtp.inbox.find((m) => m.to.includes(admin.email))!));
  const proof = await t.app.inject({
    method: "GET",
    url: link.pathname + link.search,
    headers: { cookie: admin.cookie },
  });
  // The proof replaces the session (decision 0023).
  admin.cookie = cookieFrom(proof) || admin.cookie;
}, 120_000);
afterAll(async () => {
  await second?.app.close();
  await second?.database.close();
  await t?.close();
  await smtp?.close();
});

const db = () => t.testDb.database.db;
/** Quoted-printable soft breaks and folded header lines undone. */
const unfold = (mail: ReceivedMail) =>
  mail.raw
    .replace(/=\r?\n/g, "")
    .replace(/=3D/g, "=")
    .replace(/\r?\n[ \t]+/g, " ");
const remindersTo = (email: string) =>
  smtp.inbox.filter(
    (m) => m.to.includes(email) && /Subject: Your .* certificate (expires|has expired)/.test(unfold(m)),
  );

async function holderExpiringIn(days: number): Promise<{ user: TestUser; certificateId: string }> {
  const user = await newLearner(t);
  const certificateId = await giveCertificate(db(), user);
  await db()
    .updateTable("certificate")
    .set({ expiresAt: new Date(Date.now() + days * DAY).toISOString() })
    .where("certificateId", "=", certificateId)
    .execute();
  return { user, certificateId };
}

const sweepRuns = async () =>
  Number(
    (
      await db()
        .selectFrom("scheduledJob")
        .select("runs")
        .where("name", "=", "certificate-reminders")
        .executeTakeFirst()
    )?.runs ?? 0,
  );

function sweepDirectly(app: FastifyInstance) {
  const { config } = app.deps;
  return sweepCertificateReminders({
    db: app.deps.database.db,
    config,
    catalogue: () => new CourseCatalogue(app.deps.database.db).get(),
  });
}

describe("expiry reminders", () => {
  it("sends one 30-day reminder across two app instances, however often the sweep runs", async () => {
    const { user } = await holderExpiringIn(29);
    await expect.poll(() => remindersTo(user.email).length, { timeout: 30_000, interval: 200 }).toBe(1);
    // Three more turns of the sweep (on whichever instance), and both instances sweeping at once.
    const after = await sweepRuns();
    await expect.poll(sweepRuns, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(after + 3);
    await Promise.all([sweepDirectly(t.app), sweepDirectly(second.app)]);
    const mails = remindersTo(user.email);
    expect(mails).toHaveLength(1);
    const text = unfold(nth(mails, 0));
    // The real days left (29), not the 30-day threshold the certificate crossed.
    expect(text).toMatch(/Subject: Your Fixture Basics certificate expires in 29 days/);
    expect(text).toMatch(/expires on [A-Z][a-z]+ \d{1,2}, \d{4}, in 29 days\./);
    expect(text).toContain("Content-Type: text/plain");
    expect(text).toContain("Content-Type: text/html");
    expect(text).toMatch(/List-Unsubscribe: <http:\/\/localhost:3000\/api\/email\/unsubscribe\?token=/);
    expect(text).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(text).toContain("http://localhost:3000/certificates");
  }, 90_000);

  it("stops once the holder unsubscribes with the one-click link, while other holders are still reminded", async () => {
    const leaving = await holderExpiringIn(80);
    const staying = await holderExpiringIn(80);
    for (const holder of [leaving, staying])
      await expect.poll(() => remindersTo(holder.user.email).length, { timeout: 30_000, interval: 200 }).toBe(1);
    const oneClick = must(
      /List-Unsubscribe: <http:\/\/localhost:3000(\/api\/email\/unsubscribe\?token=[^>]+)>/.exec(
        unfold(nth(remindersTo(leaving.user.email), 0)),
      )?.[1],
      "a one-click unsubscribe link",
    );
    // A mail client's RFC 8058 POST: a form body, no cookie, no origin.
    const res = await t.app.inject({
      method: "POST",
      url: oneClick,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode, res.body).toBe(200);
    // A forged token is refused.
    const forged = await request(t.app, "POST", "/api/email/unsubscribe", {
      payload: { token: `${Buffer.from(staying.user.id).toString("base64url")}.AAAAAAAAAAAAAAAAAAAA` },
    });
    expect(forged.statusCode).toBe(400);

    for (const holder of [leaving, staying]) {
      await db()
        .updateTable("certificate")
        .set({ expiresAt: new Date(Date.now() + 6 * DAY).toISOString() })
        .where("certificateId", "=", holder.certificateId)
        .execute();
    }
    await expect.poll(() => remindersTo(staying.user.email).length, { timeout: 30_000, interval: 200 }).toBe(2);
    expect(unfold(nth(remindersTo(staying.user.email), 1))).toMatch(/expires in 6 days/);
    expect(remindersTo(leaving.user.email)).toHaveLength(1);
  }, 90_000);
});

describe("recertification", () => {
  it("renews by a timed exam: new dates, a re-issued credential that verifies with its new dates and hours", async () => {
    const { user, certificateId } = await holderExpiringIn(30);
    const before = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()[0];
    expect(before).toMatchObject({ certificateId, lifecycle: "expiring", canRenew: true, ceHours: null });
    const oldCredential = (
      await request(t.app, "GET", `/api/certificates/${certificateId}/credential`, { cookie: user.cookie })
    ).json();

    const { quiz, result, status } = await takeAssessment(t.app, user.cookie, "fixture-basics", "recertification");
    expect(status).toBe(200);
    expect(quiz.kind).toBe("exam");
    expect(quiz.deadlineAt).not.toBeNull();
    // Drawn by the exam's blueprint: 5 items.
    expect(quiz.questions).toHaveLength(5);
    expect(result.passed).toBe(true);

    const after = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()[0];
    const expected = new Date(before.expiresAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 2);
    expect(after.expiresAt).toBe(expected.toISOString());
    expect(after).toMatchObject({ lifecycle: "valid", canRenew: false });

    const credential = (
      await request(t.app, "GET", `/api/certificates/${certificateId}/credential`, { cookie: user.cookie })
    ).json();
    expect(credential.id).not.toBe(oldCredential.id);
    expect(credential.validUntil.slice(0, 10)).toBe(after.expiresAt.slice(0, 10));
    // No approving body: no CE credits in the credential, and its criteria say so.
    expect(credential.credentialSubject.achievement.creditsAvailable).toBeUndefined();
    expect(credential.credentialSubject.creditsEarned).toBeUndefined();
    expect(credential.credentialSubject.achievement.criteria.narrative).toContain(
      "Estimated study time: 6 hours. Not approved for continuing-education credit.",
    );
    expectValidAchievementCredential(credential);
    const verified = await verifyCredentialAsWallet(t, credential);
    expect(verified.error?.errors ?? verified.error).toBeUndefined();
    expect(verified.verified).toBe(true);
    // The old credential is superseded, not revoked: still signed, with its old dates, status bit clear.
    const old = await verifyCredentialAsWallet(t, oldCredential);
    expect(old.statusResult?.results?.[0]?.status).toBe(false);

    const verify = (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();
    expect(verify).toMatchObject({
      status: "valid",
      ceHours: null,
      creditStatement: "Estimated study time: 6 hours. Not approved for continuing-education credit.",
      expiresAt: after.expiresAt,
    });
    expect(verify.history).toEqual([
      {
        kind: "recertification",
        at: expect.any(String),
        previousExpiresAt: before.expiresAt,
        newExpiresAt: after.expiresAt,
      },
    ]);
    await expect
      .poll(() => smtp.inbox.some((m) => m.to.includes(user.email) && unfold(m).includes("certificate is renewed")), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(true);
  }, 90_000);

  it("counts a lapsed certificate's new period from the pass, and refuses before the window and after it", async () => {
    const lapsed = await holderExpiringIn(-10);
    const { result } = await takeAssessment(t.app, lapsed.user.cookie, "fixture-basics", "recertification");
    expect(result.passed).toBe(true);
    const renewed = (await request(t.app, "GET", "/api/certificates", { cookie: lapsed.user.cookie })).json()[0];
    const years = (new Date(renewed.expiresAt).getTime() - Date.now()) / (365.25 * DAY);
    expect(years).toBeGreaterThan(1.99);
    expect(years).toBeLessThan(2.01);

    const early = await holderExpiringIn(200);
    const tooEarly = await request(t.app, "POST", "/api/recertification/fixture-basics/attempt", {
      cookie: early.user.cookie,
    });
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().message).toMatch(/Recertification opens on/);

    const gone = await holderExpiringIn(-400);
    const tooLate = await request(t.app, "POST", "/api/recertification/fixture-basics/attempt", {
      cookie: gone.user.cookie,
    });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().message).toMatch(/Recertification closed on/);
  }, 90_000);

  it("applies a pass whose renewal was interrupted when the holder comes back", async () => {
    const { user, certificateId } = await holderExpiringIn(40);
    const before = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()[0];
    // A passed attempt stored, and the process stopped before the certificate moved.
    await db()
      .insertInto("assessmentAttempt")
      .values({
        id: `interrupted-${certificateId}`,
        userId: user.id,
        courseId: "fixture-basics",
        assessmentId: "#recertification",
        questions: "[]",
        startedAt: new Date(Date.now() - 60_000).toISOString(),
        deadlineAt: null,
        submittedAt: new Date().toISOString(),
        score: 100,
        passed: true,
        ordinal: 1,
      })
      .execute();
    const res = await request(t.app, "POST", "/api/recertification/fixture-basics/attempt", { cookie: user.cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Recertification opens on/);
    const after = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()[0];
    const expected = new Date(before.expiresAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 2);
    expect(after.expiresAt).toBe(expected.toISOString());
  }, 60_000);

  it("refuses to renew a revoked or refunded certificate", async () => {
    for (const reason of ["Misconduct", "refunded"]) {
      const { user, certificateId } = await holderExpiringIn(20);
      const revoke = await request(t.app, "POST", `/api/admin/certificates/${certificateId}/revoke`, {
        cookie: admin.cookie,
        payload: { reason },
      });
      expect(revoke.statusCode).toBe(200);
      const res = await request(t.app, "POST", "/api/recertification/fixture-basics/attempt", { cookie: user.cookie });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/revoked.*cannot be renewed/);
      const mine = (await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()[0];
      expect(mine).toMatchObject({ lifecycle: "revoked", canRenew: false });
    }
  }, 60_000);
});

describe("admin: expiring certificates and extension", () => {
  it("lists certificates by window with their reminders, exports CSV, and extends one by hand (audited, on the verify page)", async () => {
    const { user, certificateId } = await holderExpiringIn(25);
    await expect.poll(() => remindersTo(user.email).length, { timeout: 30_000, interval: 200 }).toBe(1);
    const list = await request(t.app, "GET", "/api/admin/certificates/expiring?window=30", { cookie: admin.cookie });
    expect(list.statusCode).toBe(200);
    const row = list.json().find((r: { certificateId: string }) => r.certificateId === certificateId);
    expect(row).toMatchObject({ email: user.email, remindersSent: ["30-days"], lifecycle: "expiring" });
    const csv = await request(t.app, "GET", "/api/admin/certificates/expiring.csv?window=30", { cookie: admin.cookie });
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.body).toContain(`${certificateId},Test Learner,${user.email},Fixture Basics`);
    const learnerTry = await request(t.app, "GET", "/api/admin/certificates/expiring", { cookie: user.cookie });
    expect(learnerTry.statusCode).toBe(403);

    const until = new Date(Date.now() + 400 * DAY).toISOString().slice(0, 10);
    const bad = await request(t.app, "POST", `/api/admin/certificates/${certificateId}/extend`, {
      cookie: admin.cookie,
      payload: { until: "2000-01-01", reason: "Illness during the renewal window" },
    });
    expect(bad.statusCode).toBe(400);
    const extended = await request(t.app, "POST", `/api/admin/certificates/${certificateId}/extend`, {
      cookie: admin.cookie,
      payload: { until, reason: "Illness during the renewal window" },
    });
    expect(extended.statusCode).toBe(200);
    const verify = (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();
    expect(verify.expiresAt.slice(0, 10)).toBe(until);
    expect(verify.history.map((h: { kind: string }) => h.kind)).toEqual(["extension"]);
    const audit = await db().selectFrom("auditLog").selectAll().where("target", "=", certificateId).execute();
    expect(audit.map((a) => a.action)).toContain("certificate.extend");
    const expiring = await request(t.app, "GET", "/api/admin/certificates/expiring?window=30", {
      cookie: admin.cookie,
    });
    expect(expiring.json().some((r: { certificateId: string }) => r.certificateId === certificateId)).toBe(false);
  }, 90_000);
});
