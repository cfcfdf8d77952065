import { readdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase } from "#server/db/database.ts";
import { reconcilePayments } from "#server/modules/checkout/reconciliation.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { completeCourse } from "../setup/assessments.ts";
import { CONFIRMATIONS, SAMPLE_FILES, submitPractical } from "../setup/practical.ts";
import {
  cookieFrom,
  createTestApp,
  enrol,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  type TestUser,
} from "../setup/test-app.ts";

// An account erasure races with the account's own writes, on two app instances over one database
// (decision 0051). Each race runs many times at once; whatever the order, nothing written for the
// account survives the erasure, and no session outlives it.
const TRIALS = 6;
const COURSE = "fixture-practical";
let t: TestApp;
let second: { app: FastifyInstance; database: Database };

beforeAll(async () => {
  t = await createTestApp({ practical: true });
  // The second instance: its own connections to the same database, the same settings (and upload folder).
  const database = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 5 });
  const app = await buildApp({ config: t.config, database, clientDir: "/nonexistent" });
  await app.ready();
  second = { app, database };
});
afterAll(async () => {
  await second?.app.close();
  await second?.database.close();
  await t?.close();
});

const db = () => t.testDb.database.db;
const instances = () => [t.app, second.app];
let signIns = 0;
const signIn = (app: FastifyInstance, user: TestUser) =>
  app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: TEST_ORIGIN },
    // An address per sign-in: the per-address limit (10 a minute) is not what is tested.
    remoteAddress: `198.51.${100 + ((++signIns >> 8) % 50)}.${signIns % 256}`,
    payload: { email: user.email, password: user.password },
  });
let erasures = 0;
/** Each erasure from an address of its own: the route's own limit (10 tries in 15 minutes) is not what is tested. */
const erase = (app: FastifyInstance, user: TestUser) =>
  app.inject({
    method: "POST",
    url: "/api/account/delete",
    headers: { origin: TEST_ORIGIN, cookie: user.cookie },
    remoteAddress: `203.0.113.${++erasures}`,
    payload: { password: user.password },
  });

async function rowsOf(userId: string) {
  const count = async (table: "practicalSubmission" | "session" | "enrollment" | "courseProgress") =>
    (await db().selectFrom(table).select("userId").where("userId", "=", userId).execute()).length;
  return {
    submissions: await count("practicalSubmission"),
    sessions: await count("session"),
    enrollments: await count("enrollment"),
    progress: await count("courseProgress"),
  };
}

/** Every stored file of every practical submission still on record, and every file in the folder. */
function storedFiles(): string[] {
  const dir = t.config.storage.kind === "folder" ? `${t.config.storage.dir}/practical` : "";
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A learner whose card payment succeeded at the sandbox; nothing has confirmed it with the academy yet. */
async function paidBeforeConfirmation(): Promise<{ user: TestUser; paymentIntentId: string }> {
  const user = await signUpUser(t.app);
  const post = (url: string, payload: unknown) => request(t.app, "POST", url, { cookie: user.cookie, payload });
  const intent = (await post("/api/create-payment-intent", { courseId: "fixture-basics" })).json();
  await post(`/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
    clientSecret: intent.clientSecret,
    card: { number: SANDBOX_CARDS.success, expMonth: 12, expYear: 2099, cvc: "123" },
  });
  return { user, paymentIntentId: intent.paymentIntentId };
}

describe("a payment that completes for an erased account", () => {
  it("is refunded by the reconciliation, enrols nobody and writes no receipt", async () => {
    const { user } = await paidBeforeConfirmation();
    // The learner deletes the account before the checkout page confirms; the payment completes after.
    expect((await erase(second.app, user)).statusCode).toBe(200);
    await reconcilePayments({ db: db(), provider: t.app.deps.payments! });
    const [order] = await db().selectFrom("order").selectAll().where("userId", "=", user.id).execute();
    expect(order).toMatchObject({ status: "refunded", refundReason: "erased" });
    expect((await rowsOf(user.id)).enrollments).toBe(0);
    const mail = await db()
      .selectFrom("outboxEmail")
      .select("key")
      .where("key", "like", `receipt:${order!.id}:%`)
      .execute();
    expect(mail).toEqual([]);
  });
});

describe("an erasure racing the account's own writes", () => {
  it("an upload racing the erasure leaves no submission and no stored file behind", { timeout: 240_000 }, async () => {
    const learners: TestUser[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const user = await signUpUser(t.app);
      await enrol(t, user, COURSE);
      await completeCourse(t.app, user.cookie, COURSE);
      learners.push(user);
    }
    const filesBefore = new Set(storedFiles());
    const outcomes = await Promise.all(
      learners.map(async (user, i) => {
        const [a, b] = i % 2 ? [t.app, second.app] : [second.app, t.app];
        const [upload, erased] = await Promise.all([
          submitPractical(a, user.cookie, COURSE, { text: "My session notes.", ...CONFIRMATIONS }, [
            { name: "session.mp3", data: SAMPLE_FILES.mp3, type: "audio/mpeg" },
            { name: "notes.txt", data: SAMPLE_FILES.text, type: "text/plain" },
          ]),
          erase(b, user),
        ]);
        expect(erased.statusCode).toBe(200);
        return upload.statusCode;
      }),
    );
    for (const user of learners) expect(await rowsOf(user.id)).toMatchObject({ submissions: 0, progress: 0 });
    // Files written by a refused upload are removed; those of an upload that won are removed by the
    // erasure: both through a one-off job, run here rather than waiting for the app's next turn.
    await Promise.all([t.app.deps.oneOffJobs.runDue(), second.app.deps.oneOffJobs.runDue()]);
    const left = storedFiles().filter((f) => !filesBefore.has(f));
    const onRecord = new Set(
      (await db().selectFrom("practicalFile").select("storageKey").execute()).map((f) => f.storageKey.split("/")[1]),
    );
    expect(left.filter((f) => !onRecord.has(f))).toEqual([]);
    // Either order happened: some uploads answered 200 (then erased), some were refused.
    expect(outcomes.every((s) => s === 200 || s === 401 || s === 403)).toBe(true);
  });

  it("sign-ins racing the erasure leave no working session on any instance", { timeout: 240_000 }, async () => {
    const learners: TestUser[] = [];
    for (let i = 0; i < TRIALS; i++) learners.push(await signUpUser(t.app));
    const cookies = await Promise.all(
      learners.map(async (user, i) => {
        // Sign-ins keep coming on both instances until the erasure has answered, and one more after.
        let answered = false;
        const erasing = erase(instances()[i % 2]!, user).finally(() => {
          answered = true;
        });
        const signInLoop = async (app: FastifyInstance) => {
          const out = [];
          do out.push(await signIn(app, user));
          while (!answered);
          out.push(await signIn(app, user));
          return out;
        };
        const [erased, ...loops] = await Promise.all([
          erasing,
          ...[t.app, second.app, t.app, second.app].map(signInLoop),
        ]);
        const responses = loops.flat();
        expect(erased.statusCode).toBe(200);
        return responses.filter((r) => r.statusCode === 200).map((r) => cookieFrom(r));
      }),
    );
    for (const [i, user] of learners.entries()) {
      expect((await rowsOf(user.id)).sessions).toBe(0);
      for (const cookie of [user.cookie, ...(cookies[i] ?? [])])
        for (const app of instances()) {
          expect((await request(app, "GET", "/api/enrollments", { cookie })).statusCode).toBe(401);
          const rename = await request(app, "PUT", "/api/profile", {
            cookie,
            payload: { firstName: "Still", lastName: "Here" },
          });
          expect(rename.statusCode).toBe(401);
        }
    }
  });

  it("a payment completing as the account is erased is refunded, not fulfilled, with no receipt", {
    timeout: 240_000,
  }, async () => {
    const learners: { user: TestUser; paymentIntentId: string }[] = [];
    for (let i = 0; i < TRIALS; i++) {
      learners.push(await paidBeforeConfirmation());
    }
    await Promise.all(
      learners.map(async ({ user, paymentIntentId }, i) => {
        const [a, b] = i % 2 ? [t.app, second.app] : [second.app, t.app];
        const [, erased] = await Promise.all([
          request(a, "POST", "/api/confirm-enrollment", { cookie: user.cookie, payload: { paymentIntentId } }),
          erase(b, user),
        ]);
        expect(erased.statusCode).toBe(200);
      }),
    );
    // Whatever the order, the reconciliation (the same path a late webhook takes) settles what is left.
    await reconcilePayments({ db: db(), provider: t.app.deps.payments! });
    for (const { user } of learners) {
      expect((await rowsOf(user.id)).enrollments).toBe(0);
      const orders = await db().selectFrom("order").select(["id", "status"]).where("userId", "=", user.id).execute();
      // Paid before the erasure (a purchase, then the account went), or refunded: never left to fulfil.
      expect(["paid", "refunded"]).toContain(orders[0]?.status);
      // Nothing waits to go to the erased account's placeholder address.
      const receipts = await db()
        .selectFrom("outboxEmail")
        .select("key")
        .where("key", "like", `receipt:${orders[0]?.id}:%`)
        .where("status", "in", ["queued", "sending"])
        .execute();
      expect(receipts).toEqual([]);
    }
  });
});
