import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { BRAND_NAME, DEFAULT_POSTAL_ADDRESS, DEFAULT_SUPPORT_EMAIL } from "#shared/constants.ts";

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined))
  .pipe(z.url({ protocol: /^https?$/ }).optional());

const emailList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

const settingsSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .default("sqlite:data/academy.db")
    .refine((v) => /^sqlite:.+/.test(v) || /^postgres(ql)?:\/\//.test(v), {
      message: "must be sqlite:<file> or a postgres:// URL",
    }),
  APP_URL: optionalUrl,
  AUTH_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || v.length >= 32, { message: "must be at least 32 characters" }),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().min(3).default(`${BRAND_NAME} <no-reply@localhost>`),
  MAIL_OUTBOX_DIR: z.string().min(1).default("data/outbox"),
  ADMIN_EMAILS: emailList,
  /**
   * `off` only for local development: staff roles then work without a second factor, and actions that
   * move money or credentials ask to re-confirm only accounts that have one (docs/decisions/0054).
   */
  STAFF_SECOND_FACTOR: z.enum(["on", "off"]).default("on"),
  STORE_URL: optionalUrl,
  PRACTITIONER_APP_URL: optionalUrl,
  MARKETPLACE_URL: optionalUrl,
  SUPPORT_EMAIL: z.email().default(DEFAULT_SUPPORT_EMAIL),
  /** The sender's postal address, printed at the foot of every e-mail (reminders must carry one). */
  ACADEMY_POSTAL_ADDRESS: z.string().trim().min(5).max(200).default(DEFAULT_POSTAL_ADDRESS),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v, ctx): TrustProxy => {
      const value = v.trim();
      if (value === "" || value === "false" || value === "0") return false;
      if (/^\d+$/.test(value)) return Number(value);
      const list = value.split(",").map((a) => a.trim());
      const bad = list.filter((a) => !PROXY_NAMES.has(a) && !isIP(a.replace(/\/\d+$/, "")));
      if (value === "true" || bad.length) {
        ctx.addIssue({
          code: "custom",
          message:
            "must be the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.5,10.0.1.0/24); " +
            "true would believe a forged X-Forwarded-For",
        });
        return z.NEVER;
      }
      return list;
    }),
  /** Server processes `npm start` runs; 1 serves from a single process. */
  WEB_CONCURRENCY: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(256).optional()),
  CERTIFICATE_VALID_YEARS: z.coerce.number().int().min(1).max(50).default(2),
  /** Days before expiry a holder is reminded; one more reminder goes out at expiry. */
  CERTIFICATE_REMINDER_DAYS: z
    .string()
    .default("90,30,7")
    .transform((v) => v.split(",").map((d) => Number(d.trim())))
    .pipe(z.array(z.number().int().min(1).max(3650)).min(1).max(10))
    .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
  /** How often the reminder sweep runs (once across all instances); 0 turns it off. */
  CERTIFICATE_REMINDER_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86400).default(3600),
  /** How often the dashboard's daily rollup is brought up to date (once across all instances); 0 turns it off. */
  ANALYTICS_ROLLUP_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  ASSESSMENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  ASSESSMENT_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).default(24),
  EXAM_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Largest file a practical submission may carry, in megabytes. */
  PRACTICAL_MAX_FILE_MB: z.coerce.number().min(0.1).max(200).default(20),
  /** What the course page promises as the wait for an assessor's review, in days. */
  PRACTICAL_REVIEW_DAYS: z.coerce.number().min(0.5).max(60).default(5),
  /** Share of first marks (0-1) also marked blind by a second assessor; borderline ones always are. */
  PRACTICAL_DOUBLE_MARK_SHARE: z.coerce.number().min(0).max(1).default(0.1),
  /** Where uploaded practical files are kept (the folder storage); default data/uploads. */
  UPLOADS_DIR: z.string().optional(),
  /** Set: uploaded files go to this bucket of an S3-compatible object store instead of the folder. */
  S3_BUCKET: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: "must be a bucket name (3-63 of a-z 0-9 . -)" })
        .optional(),
    ),
  S3_REGION: z.string().trim().optional(),
  /** Another S3-compatible service than AWS (MinIO, Ceph, R2, ...): its URL. */
  S3_ENDPOINT: optionalUrl,
  /** Bucket in the path (https://host/bucket/key) rather than the host name; most self-hosted services need it. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
  /** Put in front of every object key, so one bucket can hold several academies' files. */
  S3_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^([\w.-]+\/)*$/, { message: "folder names of letters, digits and . _ - each ending in /, e.g. academy/" })
    .max(200)
    .default(""),
  PAYMENTS_PROVIDER: z.enum(["sandbox", "stripe", ""]).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** How often each server asks the provider about payments whose confirmation never arrived; 0 turns it off. */
  PAYMENTS_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
  /** Points the Stripe SDK at another API host, e.g. a local stripe-mock. */
  STRIPE_API_BASE: optionalUrl,
  /** A request's headers must arrive within this; the whole request (body included) within the next. */
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(10),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  /** An idle keep-alive connection is closed after this; above a proxy's own idle limit (nginx: 60 s). */
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(65),
  /** On SIGTERM, /readyz says 503 for this long while the process still serves, before it stops listening. */
  SHUTDOWN_DELAY_SECONDS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().min(0).max(8).optional()),
  /**
   * Overload (decision 0049): requests are refused at once with 503 while the oldest one waiting for a
   * PostgreSQL connection has waited this long, or while the event loop lags this much; 0 turns either
   * off. Default 1000 in production, off elsewhere.
   */
  OVERLOAD_QUEUE_WAIT_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(0).max(60_000).optional(),
  ),
  OVERLOAD_EVENT_LOOP_DELAY_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(0).max(60_000).optional(),
  ),
  /** PostgreSQL cancels any statement running longer (0: no limit). */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(15),
  /** PostgreSQL connections per server process; by default the processes share about 2 per core (decision 0042). */
  DATABASE_POOL_SIZE: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(1000).optional(),
  ),
  /** Rate limits, lockouts, mail caps and cache news go through this Redis when set; the database otherwise. */
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(z.url({ protocol: /^rediss?$/, message: "must be a redis:// or rediss:// URL" }).optional()),
  /** Put in front of every Redis key and channel, so several academies (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,64}$/, { message: "letters, digits and . _ : - only, at most 64" })
    .default("academy:"),
});

/** false: the socket address is the client; n: trust n proxy hops; list: trust these proxy addresses. */
export type TrustProxy = false | number | string[];
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

export type Settings = z.output<typeof settingsSchema>;

export interface Config {
  env: Settings["NODE_ENV"];
  port: number;
  host: string;
  databaseUrl: string;
  appUrl: string;
  authSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  mailOutboxDir: string;
  adminEmails: string[];
  /** Staff roles need a passkey or two-factor (decision 0054); false only with STAFF_SECOND_FACTOR=off. */
  staffSecondFactor: boolean;
  storeUrl?: string;
  practitionerAppUrl?: string;
  marketplaceUrl?: string;
  supportEmail: string;
  postalAddress: string;
  trustProxy: TrustProxy;
  webConcurrency: number;
  certificateValidYears: number;
  /** Days before expiry that get a reminder, largest first. */
  certificateReminderDays: number[];
  certificateReminderSweepSeconds: number;
  analyticsRollupMinutes: number;
  /** Academy-wide attempt rules; a course may set its own in course.json. */
  assessment: AssessmentDefaults;
  dataDir: string;
  practical: { maxFileBytes: number; expectedReviewDays: number; doubleMarkShare: number };
  /** Where uploaded files go (decision 0039): a folder by default, an S3-compatible bucket when S3_BUCKET is set. */
  storage: StorageConfig;
  payments: PaymentsConfig;
  paymentsReconcileSeconds: number;
  timeouts: ServerTimeouts;
  databaseStatementTimeoutMs: number;
  /** PostgreSQL connections per server process. */
  databasePoolSize: number;
  /** How long a stopping process keeps serving with /readyz at 503 before it closes its listener. */
  shutdownDelayMs: number;
  /** When requests are refused at once as overload (0: that check is off). */
  overload: { queueWaitMs: number; eventLoopDelayMs: number };
  /** Redis for shared counters and cache news (decision 0031); undefined: the database does it all. */
  redis?: { url: string; keyPrefix: string };
}

export type StorageConfig =
  | { kind: "folder"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      keyPrefix: string;
      /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID, a shared profile, an instance or task role). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

function storageConfig(s: Settings, dataDir: string): StorageConfig {
  if (!s.S3_BUCKET) {
    // A half-configured bucket must not quietly leave files on one machine's disk.
    const stray = (
      ["S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_KEY_PREFIX"] as const
    ).filter((name) => s[name]);
    if (stray.length) throw new ConfigError(`Invalid setting ${stray.join(" / ")}: set S3_BUCKET too, or none of them`);
    return { kind: "folder", dir: s.UPLOADS_DIR ? resolve(s.UPLOADS_DIR) : resolve(dataDir, "uploads") };
  }
  if (!!s.S3_ACCESS_KEY_ID !== !!s.S3_SECRET_ACCESS_KEY)
    throw new ConfigError("Invalid setting S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither");
  return {
    kind: "s3",
    bucket: s.S3_BUCKET,
    region: s.S3_REGION || "us-east-1",
    endpoint: s.S3_ENDPOINT,
    forcePathStyle: s.S3_FORCE_PATH_STYLE,
    keyPrefix: s.S3_KEY_PREFIX,
    credentials:
      s.S3_ACCESS_KEY_ID && s.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: s.S3_ACCESS_KEY_ID, secretAccessKey: s.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

export interface AssessmentDefaults {
  maxAttempts: number;
  cooldownHours: number;
  /** Extra time after a timed exam's limit during which a submission is still accepted. */
  examGraceSeconds: number;
}

export type PaymentsConfig =
  | { provider: "sandbox"; testBanner: boolean }
  | { provider: "stripe"; secretKey: string; publishableKey: string; webhookSecret: string; apiBase?: string }
  | { provider: "none" };

function paymentsConfig(s: Settings): PaymentsConfig {
  const stripeKeys = [s.STRIPE_SECRET_KEY, s.STRIPE_PUBLISHABLE_KEY, s.STRIPE_WEBHOOK_SECRET].filter(Boolean).length;
  if (stripeKeys > 0 && stripeKeys < 3) {
    throw new ConfigError(
      "Invalid setting STRIPE_SECRET_KEY / STRIPE_PUBLISHABLE_KEY / STRIPE_WEBHOOK_SECRET: set all three or none",
    );
  }
  const wanted = s.PAYMENTS_PROVIDER || (stripeKeys === 3 ? "stripe" : "sandbox");
  if (wanted === "stripe") {
    if (stripeKeys !== 3)
      throw new ConfigError("Invalid setting PAYMENTS_PROVIDER: stripe needs the three STRIPE_* keys");
    return {
      provider: "stripe",
      secretKey: s.STRIPE_SECRET_KEY!,
      publishableKey: s.STRIPE_PUBLISHABLE_KEY!,
      webhookSecret: s.STRIPE_WEBHOOK_SECRET!,
      apiBase: s.STRIPE_API_BASE,
    };
  }
  // In production the sandbox runs only when asked for by name, and then says so on every checkout page.
  if (s.NODE_ENV === "production" && s.PAYMENTS_PROVIDER !== "sandbox") return { provider: "none" };
  return { provider: "sandbox", testBanner: s.NODE_ENV === "production" };
}

export class ConfigError extends Error {}

/** Reads `.env` into process.env when present; real environment variables win. */
export function loadDotEnv(file = ".env") {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Reads and validates every setting once. A bad value throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, dataDir = resolve("data")): Config {
  if (env === process.env) loadDotEnv();
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid setting ${lines.join("; ")}`);
  }
  const s = parsed.data;
  if (s.HEADERS_TIMEOUT_SECONDS > s.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError("Invalid setting HEADERS_TIMEOUT_SECONDS: must not exceed REQUEST_TIMEOUT_SECONDS");
  }
  // Several machines behind one load balancer must share the secret: a per-machine file would sign
  // each machine's sessions differently, so production refuses to start without it.
  if (s.NODE_ENV === "production" && !s.AUTH_SECRET) {
    throw new ConfigError(
      "Invalid setting AUTH_SECRET: required in production (at least 32 characters, the same on every instance)",
    );
  }
  return {
    env: s.NODE_ENV,
    port: s.PORT,
    host: s.HOST,
    databaseUrl: s.DATABASE_URL,
    appUrl: (s.APP_URL ?? `http://localhost:${s.PORT}`).replace(/\/$/, ""),
    authSecret: s.AUTH_SECRET || readOrCreateSecret(dataDir),
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    mailOutboxDir: resolve(s.MAIL_OUTBOX_DIR),
    adminEmails: s.ADMIN_EMAILS,
    staffSecondFactor: s.STAFF_SECOND_FACTOR === "on",
    storeUrl: s.STORE_URL,
    practitionerAppUrl: s.PRACTITIONER_APP_URL,
    marketplaceUrl: s.MARKETPLACE_URL,
    supportEmail: s.SUPPORT_EMAIL,
    postalAddress: s.ACADEMY_POSTAL_ADDRESS,
    trustProxy: s.TRUST_PROXY,
    webConcurrency: s.WEB_CONCURRENCY ?? availableParallelism(),
    certificateValidYears: s.CERTIFICATE_VALID_YEARS,
    certificateReminderDays: s.CERTIFICATE_REMINDER_DAYS,
    certificateReminderSweepSeconds: s.CERTIFICATE_REMINDER_SWEEP_SECONDS,
    analyticsRollupMinutes: s.ANALYTICS_ROLLUP_MINUTES,
    assessment: {
      maxAttempts: s.ASSESSMENT_MAX_ATTEMPTS,
      cooldownHours: s.ASSESSMENT_COOLDOWN_HOURS,
      examGraceSeconds: s.EXAM_GRACE_SECONDS,
    },
    dataDir,
    practical: {
      maxFileBytes: Math.round(s.PRACTICAL_MAX_FILE_MB * 1024 * 1024),
      expectedReviewDays: s.PRACTICAL_REVIEW_DAYS,
      doubleMarkShare: s.PRACTICAL_DOUBLE_MARK_SHARE,
    },
    storage: storageConfig(s, dataDir),
    payments: paymentsConfig(s),
    paymentsReconcileSeconds: s.PAYMENTS_RECONCILE_SECONDS,
    timeouts: {
      headersMs: s.HEADERS_TIMEOUT_SECONDS * 1000,
      requestMs: s.REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: s.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    databaseStatementTimeoutMs: s.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    databasePoolSize: s.DATABASE_POOL_SIZE ?? poolSizeFor(s.WEB_CONCURRENCY ?? availableParallelism()),
    // In production a load balancer needs a moment to see /readyz fail; elsewhere Ctrl-C stops at once.
    shutdownDelayMs: (s.SHUTDOWN_DELAY_SECONDS ?? (s.NODE_ENV === "production" ? 3 : 0)) * 1000,
    overload: {
      queueWaitMs: s.OVERLOAD_QUEUE_WAIT_MS ?? (s.NODE_ENV === "production" ? 1000 : 0),
      eventLoopDelayMs: s.OVERLOAD_EVENT_LOOP_DELAY_MS ?? (s.NODE_ENV === "production" ? 1000 : 0),
    },
    redis: s.REDIS_URL ? { url: s.REDIS_URL, keyPrefix: s.REDIS_KEY_PREFIX } : undefined,
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = resolve(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * About 2 × cores + 1 connections in all, shared by the server processes, and at least 4 per process:
 * a core serves one statement at a time, and a few more cover the time statements spend on the wire.
 * More connections than that only queue inside PostgreSQL (decision 0042).
 */
export function poolSizeFor(processes: number, cores = availableParallelism()): number {
  return Math.max(4, Math.ceil((2 * cores + 1) / processes));
}
