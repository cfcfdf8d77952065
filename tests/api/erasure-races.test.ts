import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Database, openDatabase, sqliteFileFromUrl } from "#server/db/database.ts";
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
import { testEngine } from "../setup/test-database.ts";

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

/**
 * An erasure caught in the middle: it has taken the account's lock, marked it erased and ended its
 * sessions, but not committed (a second connection of the test's own: `FOR UPDATE` on PostgreSQL,
 * the single writer on SQLite). A request whose session was read before that point is then sent;
 * `settled` waits until it is blocked on the lock or has answered (PostgreSQL), or starts the holder's
 * one-second wait (SQLite), and `commit` ends the erasure. The write either waits and is refused, or, without its
 * check, lands for the erased account.
 */
async function erasureInFlight(userId: string) {
  const now = new Date().toISOString();
  if (testEngine === "postgres") {
    const client = new pg.Client({ connectionString: t.testDb.url });
    await client.connect();
    await client.query(`set search_path to ${t.testDb.schema}`);
    await client.query("begin");
    await client.query('select id from "user" where id = $1 for update', [userId]);
    await client.query('update "user" set "erasedAt" = $2 where id = $1', [userId, now]);
    await client.query('delete from "session" where "userId" = $1', [userId]);
    const waiting = async () =>
      (
        await client.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        )
      ).rows[0].n as number;
    return {
      settled: async (answer: Promise<unknown>) => {
        let answered = false;
        void answer.finally(() => (answered = true));
        await expect.poll(async () => answered || (await waiting()) > 0).toBe(true);
      },
      commit: async () => {
        await client.query("commit");
        await client.end();
      },
    };
  }
  // SQLite's driver waits for the write lock synchronously, stopping this process's event loop: the
  // erasure is held by a process of its own, which commits a second after the request is sent.
  const holder = spawn(process.execPath, ["-e", HOLD_ERASURE, sqliteFileFromUrl(t.testDb.url), userId, now], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise<void>((done, fail) => {
    holder.stdout.once("data", () => done());
    holder.once("exit", (code) => fail(new Error(`the erasure holder exited (${code})`)));
  });
  const exited = new Promise((done) => holder.once("exit", done));
  return {
    settled: async (_answer: Promise<unknown>) => {
      holder.stdin.write("go\n");
    },
    commit: async () => {
      await exited;
    },
  };
}

/** Takes SQLite's write lock, marks the account erased and ends its sessions; commits 1 s after "go". */
const HOLD_ERASURE = `
const [file, userId, now] = process.argv.slice(1);
const db = new (require("better-sqlite3"))(file);
db.pragma("busy_timeout = 5000");
db.prepare("begin immediate").run();
db.prepare('update "user" set "erasedAt" = ? where id = ?').run(now, userId);
db.prepare('delete from "session" where "userId" = ?').run(userId);
process.stdout.write("held\\n");
process.stdin.once("data", () => setTimeout(() => { db.prepare("commit").run(); db.close(); process.exit(0); }, 1000));
`;

describe("a write whose session was read just before the erasure committed", () => {
  const call = (user: TestUser, method: "POST" | "PUT", url: string, payload?: unknown) =>
    request(t.app, method, url, { cookie: user.cookie, ...(payload === undefined ? {} : { payload }) });
  const count = async (table: "lessonCompletion" | "assessmentAttempt" | "practitionerListing", userId: string) =>
    (await db().selectFrom(table).select("userId").where("userId", "=", userId).execute()).length;
  /** Sends `write` while an erasure of `user` is in flight, then lets the erasure commit; returns the answer. */
  async function writeDuringErasure(user: TestUser, write: () => Promise<{ statusCode: number }>) {
    // The session is read (and cached per request) before the erasure begins.
    expect((await request(t.app, "GET", "/api/auth/user", { cookie: user.cookie })).statusCode).toBe(200);
    const erasure = await erasureInFlight(user.id);
    const answer = write();
    await erasure.settled(answer);
    await erasure.commit();
    return answer;
  }

  it("completes no lesson, starts no attempt and posts no question", async () => {
    const [lesson, attempt, question] = [await signUpUser(t.app), await signUpUser(t.app), await signUpUser(t.app)];
    for (const user of [lesson, attempt, question]) await enrol(t, user, "fixture-basics");
    const completed = await writeDuringErasure(lesson, () =>
      call(lesson, "POST", "/api/progress/fixture-basics/lessons/alpha-one/complete"),
    );
    const started = await writeDuringErasure(attempt, () =>
      call(attempt, "POST", "/api/quiz/fixture-basics/alpha/attempt"),
    );
    const posted = await writeDuringErasure(question, () =>
      call(question, "POST", "/api/courses/fixture-basics/lessons/alpha-one/questions", {
        title: "How often should I log meals?",
        body: "Is once a day enough for the food diary in this lesson?",
      }),
    );
    expect([completed.statusCode, started.statusCode, posted.statusCode]).toEqual([401, 401, 401]);
    expect(await count("lessonCompletion", lesson.id)).toBe(0);
    expect(await count("assessmentAttempt", attempt.id)).toBe(0);
    expect(await db().selectFrom("post").select("id").where("authorId", "=", question.id).execute()).toEqual([]);
  });

  it("issues no certificate and lists nobody in the directory", { timeout: 120_000 }, async () => {
    const [earner, lister] = [await signUpUser(t.app), await signUpUser(t.app)];
    for (const user of [earner, lister]) {
      await enrol(t, user, "fixture-basics");
      await completeCourse(t.app, user.cookie, "fixture-basics");
    }
    expect((await call(lister, "POST", "/api/certificate", { courseId: "fixture-basics" })).statusCode).toBe(200);
    const issued = await writeDuringErasure(earner, () =>
      call(earner, "POST", "/api/certificate", { courseId: "fixture-basics" }),
    );
    const listed = await writeDuringErasure(lister, () =>
      call(lister, "PUT", "/api/profile/practitioner", {
        displayName: "Coach Erased",
        region: "Zurich",
        bio: "Helps clients build steady eating habits.",
        contactUrl: "mailto:coach@example.com",
      }),
    );
    expect([issued.statusCode, listed.statusCode]).toEqual([401, 401]);
    expect(await db().selectFrom("certificate").select("id").where("userId", "=", earner.id).execute()).toEqual([]);
    expect(await count("practitionerListing", lister.id)).toBe(0);
  });
});
