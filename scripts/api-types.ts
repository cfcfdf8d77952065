import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import openapiTS, { type OpenAPI3 } from "openapi-typescript";
import { buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

// The client's API types, generated from the server's OpenAPI document (docs/architecture.md,
// "Route contracts"). Usage: npm run api:types. tests/api/openapi.test.ts fails when the committed
// file differs from what this writes.

export const API_TYPES_FILE = resolve("src/client/lib/api-types.gen.ts");

/** Settings under which every route is registered: the sandbox's routes, and Stripe's webhook. */
const PROVIDERS: Record<string, Record<string, string>> = {
  sandbox: {},
  stripe: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" },
};

/** The document one app serves at /api/openapi.json, built over a throwaway SQLite database. */
async function servedDocument(env: Record<string, string>): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), "api-types-"));
  const database = openDatabase(`sqlite:${join(dir, "api.db")}`);
  try {
    await migrateToLatest(database.db);
    const config = loadConfig(
      {
        NODE_ENV: "test",
        APP_URL: "http://localhost:3000",
        AUTH_SECRET: randomBytes(32).toString("hex"),
        DATABASE_URL: `sqlite:${join(dir, "api.db")}`,
        MAIL_OUTBOX_DIR: join(dir, "outbox"),
        PAYMENTS_RECONCILE_SECONDS: "0",
        ...env,
      },
      dir,
    );
    const app = await buildApp({ config, database, clientDir: join(dir, "no-client") });
    try {
      return (await app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One document with every path the app serves under any payment provider. */
export async function completeOpenApiDocument(): Promise<OpenAPI3> {
  const [first, ...others] = await Promise.all(Object.values(PROVIDERS).map(servedDocument));
  if (!first) throw new Error("No payment provider to serve a document with.");
  for (const other of others) first.paths = { ...first.paths, ...other.paths };
  return first;
}

export async function apiTypesSource(document: OpenAPI3): Promise<string> {
  return openapiTS(document, { alphabetize: true });
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  writeFileSync(API_TYPES_FILE, await apiTypesSource(await completeOpenApiDocument()));
  console.log(`Wrote ${API_TYPES_FILE}`);
}
