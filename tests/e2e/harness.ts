import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import axe from "axe-core";
import type { FastifyInstance } from "fastify";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { buildApp } from "#server/app.ts";
import { type Config, loadConfig } from "#server/config.ts";
import { loadContent } from "#server/content/content-files.ts";
import { importContent } from "#server/content/content-import.ts";
import { createEnrollment } from "#server/modules/enrollments/enrollments.repository.ts";
import { answerKey } from "../setup/assessments.ts";
import { testBrowserPath } from "../setup/browser-path.ts";
import { freePort } from "../setup/server-process.ts";
import { FIXTURE_CONTENT } from "../setup/test-app.ts";
import { createTestDatabase, type TestDatabase, testEngine } from "../setup/test-database.ts";
import { type ReceivedMail, startTestSmtp, type TestSmtp } from "../setup/test-smtp.ts";

export const CHROMIUM = testBrowserPath() ?? "/usr/bin/chromium";
const TRACE = process.env.E2E_TRACE === "1";
// One folder per engine: .ci/run runs both suites at once.
const RESULTS = resolve("test-results/e2e", testEngine);

export type Mail = ReceivedMail;

export interface E2E {
  baseUrl: string;
  app: FastifyInstance;
  config: Config;
  testDb: TestDatabase;
  browser: Browser;
  inbox: Mail[];
  /** A fresh browser context and page; console errors are collected and fail the test. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** Enrols the account with this e-mail directly, as an admin enrolment would. */
  enrol(email: string, courseId: string): Promise<void>;
}

/**
 * Starts the built app on a free port over a fresh database with the fixture courses,
 * a local SMTP server for its mail, and Debian's Chromium. One per test file.
 */
export function useE2E(
  options: {
    env?: Record<string, string>;
    content?: string;
    /** The name the browser and APP_URL use for the loopback server: WebAuthn needs a host name, not an IP. */
    hostname?: "localhost";
    /** Recipients the local SMTP server refuses, with its answer (test-smtp.ts). */
    smtpRefuse?: Parameters<typeof startTestSmtp>[0] extends infer O
      ? O extends { refuse?: infer R }
        ? R
        : never
      : never;
  } = {},
): E2E {
  const state = {
    contexts: [] as BrowserContext[],
    consoleErrors: [] as string[],
    current: null as BrowserContext | null,
  } as {
    contexts: BrowserContext[];
    consoleErrors: string[];
    current: BrowserContext | null;
  };
  const e2e = { inbox: [] as Mail[] } as E2E;
  let smtp: TestSmtp | undefined;

  beforeAll(async () => {
    smtp = await startTestSmtp({ refuse: options.smtpRefuse });
    e2e.inbox = smtp.inbox;
    const smtpPort = smtp.port;
    const port = await freePort();
    e2e.baseUrl = `http://${options.hostname ?? "127.0.0.1"}:${port}`;
    e2e.testDb = await createTestDatabase();
    e2e.config = loadConfig(
      {
        NODE_ENV: "test",
        PORT: String(port),
        APP_URL: e2e.baseUrl,
        AUTH_SECRET: "e2e-secret-that-is-long-enough-for-better-auth",
        DATABASE_URL: e2e.testDb.url,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // As in the API tests: the rule is turned on by the tests about it (decision 0054).
        STAFF_SECOND_FACTOR: "off",
        ...options.env,
      },
      e2e.testDb.dir,
    );
    const contentDir = options.content ?? FIXTURE_CONTENT;
    await importContent(e2e.testDb.database.db, loadContent(contentDir));
    e2e.app = await buildApp({
      config: e2e.config,
      database: e2e.testDb.database,
      clientDir: resolve("dist/client"),
      contentDir,
    });
    await e2e.app.listen({ port, host: "127.0.0.1" });
    e2e.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    });
  });

  afterAll(async () => {
    await e2e.browser?.close();
    await e2e.app?.close();
    await e2e.testDb?.drop();
    await smtp?.close();
  });

  beforeEach((ctx) => {
    state.consoleErrors = [];
    const contexts: BrowserContext[] = [];
    state.contexts = contexts;
    ctx.onTestFinished(async () => {
      const failed = ctx.task.result?.state === "fail" || (ctx.task.result?.errors?.length ?? 0) > 0;
      if (failed) {
        // A failing test keeps its screenshots and trace.
        mkdirSync(RESULTS, { recursive: true });
        const name = ctx.task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
        for (const [i, context] of contexts.entries()) {
          for (const [j, page] of context.pages().entries())
            await page.screenshot({ path: `${RESULTS}/${name}-${i}-${j}.png`, fullPage: true }).catch(() => {});
          if (TRACE) await context.tracing.stop({ path: `${RESULTS}/${name}-${i}.trace.zip` }).catch(() => {});
        }
      }
      for (const context of contexts) await context.close().catch(() => {});
      if (!failed) expect(state.consoleErrors, "console errors").toEqual([]);
    });
  });

  e2e.newPage = async ({ viewport } = {}) => {
    const context = await e2e.browser.newContext({
      viewport: viewport ?? { width: 1280, height: 900 },
      baseURL: e2e.baseUrl,
    });
    // A trace (a screenshot per frame and a DOM snapshot per action) costs a browser test about a
    // fifth of its CPU; E2E_TRACE=1 records one per page and keeps it when the test fails.
    if (TRACE) await context.tracing.start({ screenshots: true, snapshots: true });
    // Fixture lessons link media on invented hosts (*.example.org); answer them here, not over the network.
    await context.route(/^https?:\/\/[^/]*example\.(org|com)\//, (route) => route.fulfill({ status: 404, body: "" }));
    state.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // A page painted on the server (decisions 0032, 0046) shows before its script has loaded and
    // responds once hydrated, when the app removes its data block: a test goes on from there, as a
    // person would once the page answers a tap.
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await page.waitForFunction(() => !document.getElementById("server-state"));
      return response;
    };
    page.on("console", (msg) => {
      // The browser logs every 4xx answer as a console error; the app shows those to the person on purpose.
      if (
        msg.type() === "error" &&
        !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())
      )
        state.consoleErrors.push(msg.text());
    });
    page.on("pageerror", (error) => state.consoleErrors.push(error.message));
    return page;
  };
  e2e.enrol = async (email, courseId) => {
    const db = e2e.testDb.database.db;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await createEnrollment(db, { userId: user.id, courseId, source: "fixture" });
  };
  return e2e;
}

/** axe-core on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page, label = page.url()) {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} -> ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")}`,
      );
  });
  expect(violations, `accessibility of ${label}`).toEqual([]);
}

/** Signs up through the real form. */
export async function signUpInBrowser(
  page: Page,
  user: { firstName: string; lastName: string; email: string; password: string },
) {
  await page.goto("/login?tab=signup");
  await page.getByLabel("First name").fill(user.firstName);
  await page.getByLabel("Last name").fill(user.lastName);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await toastText(page).getByText("Account Created!").waitFor();
  // Signed in at once; the app goes to the dashboard (/) after 2000 ms.
  await page.getByRole("heading", { name: "Holistic Wellness Coach Certification Programs" }).waitFor();
}

export async function signInInBrowser(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

export function toastText(page: Page) {
  return page.getByTestId("toast");
}

/** Completes fixture-basics through the same API the pages use, from inside the signed-in page: every
 * lesson, both quizzes and (unless `exam` is false) the final exam. Returns each call's HTTP status. */
export async function completeFixtureCourse(page: Page, { exam = true } = {}): Promise<number[]> {
  const keyOf = (assessment: string) => Object.fromEntries(answerKey("fixture-basics", assessment));
  const keys = { alpha: keyOf("alpha"), beta: keyOf("beta"), exam: keyOf("exam") };
  return page.evaluate(
    async ({ keys, exam }) => {
      const call = (method: string, url: string, body?: unknown) =>
        fetch(url, {
          method,
          headers: body ? { "content-type": "application/json" } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
      const pass = async (url: string, key: Record<string, string>) => {
        const quiz = (await (await call("POST", `${url}/attempt`)).json()) as {
          attemptId: string;
          questions: { id: string }[];
        };
        const answers = Object.fromEntries(quiz.questions.map((q) => [q.id, key[q.id]]));
        return (await call("POST", url, { answers, attemptId: quiz.attemptId })).status;
      };
      const lesson = async (id: string) =>
        (await call("POST", `/api/progress/fixture-basics/lessons/${id}/complete`, {})).status;
      return [
        await lesson("alpha-one"),
        await lesson("alpha-two"),
        await pass("/api/quiz/fixture-basics/alpha", keys.alpha),
        await lesson("beta-one"),
        await lesson("beta-two"),
        await pass("/api/quiz/fixture-basics/beta", keys.beta),
        await lesson("gamma-one"),
        ...(exam ? [await pass("/api/exam/fixture-basics", keys.exam)] : []),
      ];
    },
    { keys, exam },
  );
}

let accounts = 0;
/** An account made through the real sign-up route (not the form), for tests about what comes after. */
export async function createAccount(e2e: E2E, name = { firstName: "Test", lastName: "Learner" }) {
  accounts++;
  const account = { email: `account${accounts}-${Date.now()}@example.com`, password: "calm-river-42" };
  const response = await e2e.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: e2e.baseUrl },
    remoteAddress: `198.51.100.${accounts % 250}`,
    payload: { ...account, ...name, name: `${name.firstName} ${name.lastName}` },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return account;
}
