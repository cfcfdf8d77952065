import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type AppDeps, buildApp } from "#server/app.ts";
import { type Config, loadConfig } from "#server/config.ts";
import { loadContent } from "#server/content/content-files.ts";
import { importContent } from "#server/content/content-import.ts";
import type { Database } from "#server/db/database.ts";
import { createEnrollment } from "#server/modules/enrollments/enrollments.repository.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { deliverQueuedMail } from "./outbox.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export const FIXTURE_CONTENT = resolve("tests/fixtures/content/courses");
/** A course with a required practical, imported only by the tests about it (other tests keep three courses). */
export const PRACTICAL_FIXTURE_CONTENT = resolve("tests/fixtures/practical-content/courses");
export const TEST_ORIGIN = "http://localhost:3000";

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  testDb: TestDatabase;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Import the fixture courses (default true). */
  content?: boolean;
  /** Also import fixture-practical, the course with a required practical. */
  practical?: boolean;
  clientDir?: string;
  siteContentDir?: string;
  onRoute?: AppDeps["onRoute"];
  /** The app's own connection to the test database (e.g. through a proxy); the test's is used otherwise. */
  appDatabase?: (testDb: TestDatabase) => Database;
  createJobs?: (database: Database) => AppDeps["createJobs"];
  /** The app's log lines (JSON, one a line) go here; no log is kept otherwise. */
  logStream?: AppDeps["logStream"];
}

/** The real app over a fresh database of its own, with the fixture courses imported. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const config = loadConfig(
    {
      NODE_ENV: "test",
      APP_URL: TEST_ORIGIN,
      AUTH_SECRET: "test-secret-that-is-long-enough-for-better-auth",
      DATABASE_URL: testDb.url,
      MAIL_OUTBOX_DIR: resolve(testDb.dir, "outbox"),
      // Tests run the reconciliation sweep themselves.
      PAYMENTS_RECONCILE_SECONDS: "0",
      // Tests that seed past days run the analytics rollup themselves, after seeding.
      ANALYTICS_ROLLUP_MINUTES: "0",
      // Staff tests grant roles without a second factor; the tests of that rule turn it on (decision 0054).
      STAFF_SECOND_FACTOR: "off",
      ...options.env,
    },
    testDb.dir,
  );
  if (options.content !== false) await importContent(testDb.database.db, loadContent(FIXTURE_CONTENT));
  if (options.practical) await importContent(testDb.database.db, loadContent(PRACTICAL_FIXTURE_CONTENT));
  const database = options.appDatabase?.(testDb) ?? testDb.database;
  const app = await buildApp({
    config,
    database,
    createJobs: options.createJobs?.(database),
    ...(options.logStream ? { logger: true, logStream: options.logStream } : {}),
    clientDir: options.clientDir ?? resolve(testDb.dir, "no-client"),
    onRoute: options.onRoute,
    siteContentDir: options.siteContentDir,
    contentDir: FIXTURE_CONTENT,
  });
  await app.ready();
  return {
    app,
    config,
    testDb,
    close: async () => {
      await app.close();
      if (database !== testDb.database) await database.close();
      await testDb.drop();
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

let counter = 0;

export function cookieFrom(response: LightMyRequestResponse): string {
  const raw = response.headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  // As a browser does: a later cookie of the same name replaces an earlier one, and an emptied one is dropped.
  const jar = new Map<string, string>();
  for (const [pair = ""] of list.map((c) => c.split(";"))) {
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** Signs up and signs in through the real Better Auth routes and returns the session cookie. */
export async function signUpUser(
  app: FastifyInstance,
  overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
): Promise<TestUser> {
  counter++;
  const email = overrides.email ?? `learner${counter}-${Date.now()}@example.com`;
  const password = overrides.password ?? "calm-river-42";
  const response = await app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: TEST_ORIGIN },
    // Each test user signs up from its own address, so the per-address sign-up limit never trips.
    remoteAddress: `192.0.2.${counter % 250}`,
    payload: {
      email,
      password,
      name: "Test Learner",
      firstName: overrides.firstName ?? "Test",
      lastName: overrides.lastName ?? "Learner",
    },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  // A sign-up signs the new account in at once (decision 0023).
  const body = response.json() as { user: { id: string } };
  return { id: body.user.id, email, password, cookie: cookieFrom(response) };
}

export async function enrol(testApp: TestApp, user: { id: string }, courseId: string) {
  await createEnrollment(testApp.testDb.database.db, { userId: user.id, courseId, source: "fixture" });
}

/** inject() with the browser-like headers our CSRF check expects. */
export function request(
  app: FastifyInstance,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  options: { cookie?: string; payload?: unknown; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method,
    url,
    headers: { origin: TEST_ORIGIN, ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
}

/**
 * Buys a course the way the checkout page does on the built-in sandbox: a payment intent (with a
 * coupon when given), the sandbox's success card, then confirm-enrollment. A free coupon claims
 * instead. Returns the payment intent the route answered.
 */
export async function buyInSandbox(
  testApp: TestApp,
  user: TestUser,
  courseId: string,
  couponCode?: string,
): Promise<{ isFree?: boolean; paymentIntentId: string; clientSecret: string }> {
  const post = (url: string, payload: unknown) => request(testApp.app, "POST", url, { cookie: user.cookie, payload });
  const intent = (await post("/api/create-payment-intent", { courseId, couponCode })).json();
  if (!intent.isFree)
    await post(`/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
      clientSecret: intent.clientSecret,
      card: { number: SANDBOX_CARDS.success, expMonth: 12, expYear: 2099, cvc: "123" },
    });
  const confirmed = await post(
    "/api/confirm-enrollment",
    intent.isFree ? { paymentIntentId: "free-coupon", courseId } : { paymentIntentId: intent.paymentIntentId },
  );
  if (confirmed.statusCode !== 200) throw new Error(`confirm-enrollment: ${confirmed.statusCode} ${confirmed.body}`);
  return intent;
}

/** The verification link Better Auth mailed to this address (the outbox folder), with its path and query. */
export async function verificationLinkFor(testApp: TestApp, email: string): Promise<string | null> {
  // Mail is queued after the response and sent by the outbox.
  await deliverQueuedMail(testApp.app);
  const dir = testApp.config.mailOutboxDir;
  if (!existsSync(dir)) return null;
  for (const file of readdirSync(dir).sort().reverse()) {
    // Quoted-printable: soft line breaks and '=' escapes.
    const text = readFileSync(join(dir, file), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    if (!text.includes(`To: ${email}`)) continue;
    const match = text.match(/https?:\/\/[^\s"<>]+\/api\/auth\/verify-email\?[^\s"<>]+/);
    if (match) return new URL(match[0]).pathname + new URL(match[0]).search;
  }
  return null;
}

/**
 * Opens the mailed verification link, as the learner would, in the browser that signed up. The proof
 * replaces the session (decision 0023): `user.cookie` becomes the new one.
 */
export async function verifyEmail(testApp: TestApp, user: TestUser) {
  const link = await verificationLinkFor(testApp, user.email);
  if (!link) throw new Error(`no verification e-mail for ${user.email}`);
  const response = await testApp.app.inject({ method: "GET", url: link, headers: { cookie: user.cookie } });
  if (response.statusCode >= 400) throw new Error(`verification failed: ${response.statusCode} ${response.body}`);
  const fresh = cookieFrom(response);
  if (fresh) user.cookie = fresh;
  return response;
}

/** A new account given a staff role by the admin, through the admin's role route. */
export async function signUpStaff(testApp: TestApp, admin: TestUser, role: "assessor" | "instructor") {
  const user = await signUpUser(testApp.app);
  const res = await request(testApp.app, "PUT", `/api/admin/learners/${user.id}/role`, {
    cookie: admin.cookie,
    payload: { role },
  });
  if (res.statusCode !== 200) throw new Error(`granting ${role} failed: ${res.statusCode} ${res.body}`);
  return user;
}
