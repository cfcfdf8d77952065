import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, poolSizeFor } from "#server/config.ts";

const dir = () => mkdtempSync(join(tmpdir(), "config-"));

describe("settings", () => {
  it("defaults to SQLite on port 3000 and generates a secret once, kept under data/", () => {
    const data = dir();
    const a = loadConfig({}, data);
    expect(a.databaseUrl).toBe("sqlite:data/academy.db");
    expect(a.port).toBe(3000);
    expect(a.appUrl).toBe("http://localhost:3000");
    expect(a.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(data, "auth-secret"), "utf8")).toBe(a.authSecret);
    expect(loadConfig({}, data).authSecret).toBe(a.authSecret);
  });

  it("keeps the sandbox for a fresh clone, and turns purchasing off in production without a provider", () => {
    const data = dir();
    expect(loadConfig({}, data).payments).toEqual({ provider: "sandbox", testBanner: false });
    const secret = "s".repeat(40);
    expect(loadConfig({ NODE_ENV: "production", AUTH_SECRET: secret }, data).payments).toEqual({ provider: "none" });
    expect(
      loadConfig({ NODE_ENV: "production", AUTH_SECRET: secret, PAYMENTS_PROVIDER: "sandbox" }, data).payments,
    ).toEqual({
      provider: "sandbox",
      testBanner: true,
    });
    expect(loadConfig({}, data).paymentsReconcileSeconds).toBe(60);
  });

  it("sizes the PostgreSQL pool for the cores shared by the processes, unless DATABASE_POOL_SIZE says otherwise", () => {
    const data = dir();
    // About 2 x cores + 1 connections in all, at least 4 per process.
    expect(poolSizeFor(1, 2)).toBe(5);
    expect(poolSizeFor(2, 2)).toBe(4);
    expect(poolSizeFor(1, 8)).toBe(17);
    expect(poolSizeFor(8, 8)).toBe(4);
    expect(loadConfig({ WEB_CONCURRENCY: "1" }, data).databasePoolSize).toBe(poolSizeFor(1));
    expect(loadConfig({ DATABASE_POOL_SIZE: "7" }, data).databasePoolSize).toBe(7);
    expect(loadConfig({ DATABASE_POOL_SIZE: "" }, data).databasePoolSize).toBe(
      poolSizeFor(loadConfig({}, data).webConcurrency),
    );
    expect(() => loadConfig({ DATABASE_POOL_SIZE: "0" }, data)).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("uses Redis only when REDIS_URL is set, with its key prefix; refuses a URL that is not redis:// or rediss://", () => {
    const data = dir();
    expect(loadConfig({}, data).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: "" }, data).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: "redis://:pw@cache.internal:6379/0" }, data).redis).toEqual({
      url: "redis://:pw@cache.internal:6379/0",
      keyPrefix: "academy:",
    });
    expect(loadConfig({ REDIS_URL: "rediss://cache:6380", REDIS_KEY_PREFIX: "school-b:" }, data).redis).toEqual({
      url: "rediss://cache:6380",
      keyPrefix: "school-b:",
    });
    expect(() => loadConfig({ REDIS_URL: "http://cache:6379" }, data)).toThrow(/REDIS_URL: must be a redis:/);
    expect(() => loadConfig({ REDIS_URL: "redis://cache", REDIS_KEY_PREFIX: "has space" }, data)).toThrow(
      /REDIS_KEY_PREFIX/,
    );
  });

  it("refuses to start in production without AUTH_SECRET, instead of a per-machine secret file", () => {
    const data = dir();
    expect(() => loadConfig({ NODE_ENV: "production" }, data)).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production" }, data)).toThrow(/AUTH_SECRET.*required in production/);
    expect(loadConfig({ NODE_ENV: "production", AUTH_SECRET: "p".repeat(32) }, data).authSecret).toBe("p".repeat(32));
  });

  it("sets request, header and keep-alive timeouts and a statement timeout, each changeable", () => {
    const data = dir();
    expect(loadConfig({}, data).timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 });
    expect(loadConfig({}, data).databaseStatementTimeoutMs).toBe(15_000);
    expect(loadConfig({}, data).shutdownDelayMs).toBe(0);
    expect(
      loadConfig({ NODE_ENV: "production", AUTH_SECRET: "p".repeat(32), SHUTDOWN_DELAY_SECONDS: "" }, data)
        .shutdownDelayMs,
    ).toBe(3000);
    const custom = loadConfig(
      {
        HEADERS_TIMEOUT_SECONDS: "2",
        REQUEST_TIMEOUT_SECONDS: "5",
        KEEP_ALIVE_TIMEOUT_SECONDS: "3",
        DATABASE_STATEMENT_TIMEOUT_SECONDS: "1",
      },
      data,
    );
    expect(custom.timeouts).toEqual({ headersMs: 2000, requestMs: 5000, keepAliveMs: 3000 });
    expect(custom.databaseStatementTimeoutMs).toBe(1000);
    expect(() => loadConfig({ HEADERS_TIMEOUT_SECONDS: "20", REQUEST_TIMEOUT_SECONDS: "5" }, data)).toThrow(
      /HEADERS_TIMEOUT_SECONDS/,
    );
  });

  it("stops with a message naming each bad setting", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: "seventy" }, /PORT/],
      [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
      [{ APP_URL: "not a url" }, /APP_URL/],
      [{ AUTH_SECRET: "short" }, /AUTH_SECRET/],
      [{ SMTP_URL: "http://mail" }, /SMTP_URL/],
      [{ ADMIN_EMAILS: "a@example.com, nope" }, /ADMIN_EMAILS/],
      [{ SUPPORT_EMAIL: "support" }, /SUPPORT_EMAIL/],
    ];
    for (const [env, name] of cases) {
      expect(() => loadConfig(env, dir())).toThrow(ConfigError);
      expect(() => loadConfig(env, dir())).toThrow(name);
    }
  });

  it("lowercases admin e-mails and accepts PostgreSQL URLs", () => {
    const c = loadConfig(
      {
        ADMIN_EMAILS: "Boss@Example.com,ops@example.com",
        DATABASE_URL: "postgres://u@h/db",
        AUTH_SECRET: "x".repeat(32),
      },
      dir(),
    );
    expect(c.adminEmails).toEqual(["boss@example.com", "ops@example.com"]);
    expect(c.databaseUrl).toBe("postgres://u@h/db");
  });
});

describe("TRUST_PROXY", () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value, AUTH_SECRET: "x".repeat(32) }, dir()).trustProxy;

  it("takes a hop count or a list of proxy addresses", () => {
    expect(trust("false")).toBe(false);
    expect(trust("")).toBe(false);
    expect(trust("1")).toBe(1);
    expect(trust("2")).toBe(2);
    expect(trust("10.0.0.5, 10.0.1.0/24,::1")).toEqual(["10.0.0.5", "10.0.1.0/24", "::1"]);
    expect(trust("loopback")).toEqual(["loopback"]);
  });

  it("refuses true, which would believe a forged X-Forwarded-For, and anything not an address", () => {
    expect(() => trust("true")).toThrow(/TRUST_PROXY.*number of proxies/);
    expect(() => trust("proxy.example.com")).toThrow(/TRUST_PROXY/);
  });
});

describe("WEB_CONCURRENCY", () => {
  it("defaults to one process per core; empty means the default; 0 is refused", () => {
    const at = (value: string) => loadConfig({ WEB_CONCURRENCY: value, AUTH_SECRET: "x".repeat(32) }, dir());
    expect(at("").webConcurrency).toBeGreaterThanOrEqual(1);
    expect(at("1").webConcurrency).toBe(1);
    expect(at("4").webConcurrency).toBe(4);
    expect(() => at("0")).toThrow(/WEB_CONCURRENCY/);
  });
});

describe("file storage settings", () => {
  it("uses the folder without S3_BUCKET, and the bucket with it, with region, endpoint, path style, keys and prefix", () => {
    const data = dir();
    expect(loadConfig({}, data).storage).toEqual({ kind: "folder", dir: join(data, "uploads") });
    expect(loadConfig({ S3_BUCKET: "" }, data).storage.kind).toBe("folder");
    expect(loadConfig({ S3_BUCKET: "academy-files" }, data).storage).toEqual({
      kind: "s3",
      bucket: "academy-files",
      region: "us-east-1",
      endpoint: undefined,
      forcePathStyle: false,
      keyPrefix: "",
      credentials: undefined,
    });
    expect(
      loadConfig(
        {
          S3_BUCKET: "academy-files",
          S3_REGION: "eu-central-1",
          S3_ENDPOINT: "https://minio.internal:9000",
          S3_FORCE_PATH_STYLE: "true",
          S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
          S3_SECRET_ACCESS_KEY: "secret",
          S3_KEY_PREFIX: "school-b/uploads/",
        },
        data,
      ).storage,
    ).toEqual({
      kind: "s3",
      bucket: "academy-files",
      region: "eu-central-1",
      endpoint: "https://minio.internal:9000",
      forcePathStyle: true,
      keyPrefix: "school-b/uploads/",
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret" },
    });
  });

  it("refuses a half-configured bucket, one key without the other, a bad bucket name, endpoint or prefix", () => {
    const data = dir();
    expect(() => loadConfig({ S3_ENDPOINT: "https://minio.internal:9000" }, data)).toThrow(
      /S3_ENDPOINT: set S3_BUCKET too/,
    );
    expect(() => loadConfig({ S3_BUCKET: "files", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" }, data)).toThrow(
      /S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: set both or neither/,
    );
    expect(() => loadConfig({ S3_BUCKET: "Has_Capitals" }, data)).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ S3_BUCKET: "files", S3_ENDPOINT: "ftp://minio" }, data)).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: "files", S3_KEY_PREFIX: "no-slash" }, data)).toThrow(/S3_KEY_PREFIX/);
    expect(() => loadConfig({ S3_BUCKET: "files", S3_FORCE_PATH_STYLE: "yes" }, data)).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
