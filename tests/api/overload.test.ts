import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, sqliteFileFromUrl } from "#server/db/database.ts";
import { RETRY_AFTER } from "#server/plugins/errors.ts";
import { createTestApp, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";

// Overload is not an outage (decision 0049): with the database up but every connection busy (the
// PostgreSQL pool) or the write lock taken (SQLite), requests get 503 with Retry-After and a message
// saying the service is busy, sign-up included, and the log says overload, never that the database is
// away. On PostgreSQL the app's pool has one connection, which the test holds.
const OVERLOADED = /busy right now/;
const lines: { level: number; msg: string; err?: { code?: string } }[] = [];
const logStream = { write: (line: string) => void lines.push(JSON.parse(line)) };
let t: TestApp;
let appDb: ReturnType<typeof openDatabase> | undefined;

beforeAll(async () => {
  t = await createTestApp({
    logStream,
    env: { OVERLOAD_QUEUE_WAIT_MS: "300" },
    ...(testEngine === "postgres"
      ? {
          appDatabase: (testDb) => {
            appDb = openDatabase(testDb.url, { schema: testDb.schema, poolSize: 1 });
            return appDb;
          },
        }
      : {}),
  });
});
afterAll(async () => t?.close());
// Each test reads the lines logged while it ran (tests run shuffled: another's outage must not count).
beforeEach(() => {
  lines.length = 0;
});

let counter = 0;
const signUp = () =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: TEST_ORIGIN },
    remoteAddress: `198.51.100.${++counter}`,
    payload: {
      email: `busy-${counter}-${Date.now()}@example.com`,
      password: "calm-river-42",
      name: "Busy Learner",
      firstName: "Busy",
      lastName: "Learner",
    },
  });

const logged = (text: string) => lines.filter((line) => line.msg.includes(text));

type Answer = Awaited<ReturnType<typeof signUp>>;
/**
 * Sends again while the app sheds load (503 with the overload's Retry-After): on a loaded machine the
 * one-connection pool can still be busy from the test before. What the test asserts comes after.
 */
async function onceServed(send: () => Promise<Answer>): Promise<Answer> {
  let answer = await send();
  await expect
    .poll(
      async () => {
        if (answer.statusCode === 503 && answer.headers["retry-after"] === RETRY_AFTER.overloaded)
          answer = await send();
        return answer.statusCode === 503 && answer.headers["retry-after"] === RETRY_AFTER.overloaded;
      },
      { interval: 200 },
    )
    .toBe(false);
  return answer;
}

function expectOverloaded(response: Awaited<ReturnType<typeof signUp>>) {
  expect(response.statusCode).toBe(503);
  expect(response.headers["retry-after"]).toBe("2");
  expect(response.json()).toEqual({ message: expect.stringMatching(OVERLOADED) });
}

/** Holds the app's only PostgreSQL connection until the returned function is called. */
async function holdTheOnlyConnection(): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((done) => {
    release = done;
  });
  let taken = () => {};
  const holding = new Promise<void>((done) => {
    taken = done;
  });
  const held = appDb!.db.connection().execute(async () => {
    taken();
    await released;
  });
  await holding;
  return async () => {
    release();
    await held;
  };
}

describe.skipIf(testEngine !== "postgres")("an overloaded PostgreSQL pool", () => {
  it("answers a sign-up that waited in vain 503 busy (not Better Auth's 422), then refuses new requests at once, and serves again when a connection is free", async () => {
    // A loaded machine can leave the one-connection pool busy from the test before: the setup's own
    // sign-up waits until the app serves again.
    let before: Awaited<ReturnType<typeof signUpUser>> | undefined;
    await expect
      .poll(
        async () => {
          before = await signUpUser(t.app).catch(() => undefined);
          return before !== undefined;
        },
        { interval: 200 },
      )
      .toBe(true);
    const release = await holdTheOnlyConnection();
    // This one waits for the connection, until the pool's wait runs out.
    const waiting = signUp();
    // Meanwhile new requests, sign-up and an API read alike, are refused at once once the wait is long.
    await expect.poll(async () => (await signUp()).statusCode, { interval: 100 }).toBe(503);
    expectOverloaded(await signUp());
    const read = await t.app.inject({ method: "GET", url: "/api/courses" });
    expect(read.statusCode).toBe(503);
    expect(read.headers["retry-after"]).toBe("2");
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expectOverloaded(await waiting);
    await release();

    await expect.poll(async () => (await signUp()).statusCode, { interval: 100 }).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: before?.cookie } })).statusCode,
    ).toBe(200);
    expect(logged("overloaded: refusing new requests").length).toBeGreaterThan(0);
    expect(logged("overloaded: the database was too busy").length).toBeGreaterThan(0);
    expect(logged("database unavailable")).toEqual([]);
  }, 60_000);
});

describe.skipIf(testEngine !== "postgres")(
  "a sign-up whose account row the database refuses for being unavailable",
  () => {
    // Better Auth catches the failure to create the user, logs it and answers 422 of its own; the
    // database's state wins. A trigger makes PostgreSQL refuse the insert as a database starting up does.
    it("answers 503 with Retry-After like every other route, not 422, and creates nothing", async () => {
      const db = t.testDb.database.db;
      await sql`create function refuse_user_insert() returns trigger language plpgsql as $$
      begin raise exception 'the database system is starting up' using errcode = '57P03'; end $$`.execute(db);
      await sql`create trigger refuse_user_insert before insert on "user" for each row execute function refuse_user_insert()`.execute(
        db,
      );
      const users = async () =>
        Number(
          (
            await db
              .selectFrom("user")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const usersBefore = await users();
      try {
        const response = await onceServed(signUp);
        expect(response.statusCode).toBe(503);
        expect(response.headers["retry-after"]).toBe("5");
        expect(response.json()).toEqual({ message: expect.stringMatching(/database reconnects/) });
        expect(logged("auth: Failed to create user").length).toBe(1);
        expect(await users()).toBe(usersBefore);
      } finally {
        await sql`drop trigger refuse_user_insert on "user"`.execute(db);
        await sql`drop function refuse_user_insert()`.execute(db);
      }
      expect((await signUp()).statusCode).toBe(200);
    });
  },
);

describe.skipIf(testEngine !== "sqlite")("a SQLite write lock held too long", () => {
  it("answers a sign-up that waited in vain 503 busy (not Better Auth's 422), and serves again once the lock is free", async () => {
    const other = new SQLite(sqliteFileFromUrl(t.testDb.url));
    other.exec("begin immediate");
    try {
      expectOverloaded(await signUp());
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect((await signUp()).statusCode).toBe(200);
    expect(logged("overloaded: the database was too busy").length).toBeGreaterThan(0);
    expect(logged("database unavailable")).toEqual([]);
  }, 60_000);
});

describe("Better Auth's own log lines", () => {
  it("come through the app's logger as JSON lines, with their level", async () => {
    const response = await onceServed(() =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: TEST_ORIGIN },
        remoteAddress: "203.0.113.9",
        payload: { email: "nobody-signed-up@example.com", password: "calm-river-42" },
      }),
    );
    expect(response.statusCode).toBe(401);
    await expect.poll(() => logged("auth: User not found").map((line) => line.level)).toEqual([40]);
  });
});

/** Keeps the event loop busy for `ms` in one stretch, as loading and compiling a server does. */
function blockTheLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy, on purpose
  }
}

describe("shedding on the event loop's delay", () => {
  let busy: TestApp;
  let base = "";
  beforeAll(async () => {
    busy = await createTestApp({ env: { OVERLOAD_EVENT_LOOP_DELAY_MS: "50" } });
    // A cold start: the loop hardly turns between loading the app and opening the listener.
    blockTheLoop(1500);
    await busy.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(busy.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => busy?.close());

  it("a cold instance answers its first requests instead of shedding them, and sheds once its loop really lags", async () => {
    const first = await Promise.all(Array.from({ length: 5 }, () => fetch(`${base}/api/courses`)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    // Past the start's samples, a loop busy in stretches for longer than two samples is overload.
    await new Promise((done) => setTimeout(done, 2100));
    for (let i = 0; i < 20; i++) {
      blockTheLoop(150);
      await new Promise((done) => setImmediate(done));
    }
    const lagging = await fetch(`${base}/api/courses`);
    expect(lagging.status).toBe(503);
    expect(lagging.headers.get("retry-after")).toBe("2");
    expect(((await lagging.json()) as { message: string }).message).toMatch(OVERLOADED);
  }, 30_000);
});
