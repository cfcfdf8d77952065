import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import { type Database, openDatabase } from "#server/db/database.ts";
import { migrateToLatest, migrateUpTo } from "#server/db/migrate.ts";

export interface TestDatabase {
  database: Database;
  url: string;
  schema?: string;
  dir: string;
  drop: () => Promise<void>;
}

/**
 * Test databases and files are thrown away, so they live in memory where the machine has a tmpfs:
 * SQLite's commits then cost no disk flush (on PostgreSQL, `durableCommits: false` does the same).
 */
const SCRATCH = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/** Whether this run targets PostgreSQL (TEST_DATABASE_URL) or the default SQLite. */
export const testEngine = process.env.TEST_DATABASE_URL ? "postgres" : "sqlite";

/**
 * A fresh, migrated database for one test file: its own SQLite file, or its own
 * PostgreSQL schema, so test files never see each other's rows.
 */
export async function createTestDatabase(options: { upTo?: string } = {}): Promise<TestDatabase> {
  const migrate = <T>(db: Kysely<T>, schema?: { schema: string }) =>
    options.upTo ? migrateUpTo(db, options.upTo, schema) : migrateToLatest(db, schema);
  const dir = mkdtempSync(join(SCRATCH, "academy-test-"));
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const url = `sqlite:${join(dir, "test.db")}`;
    const database = openDatabase(url);
    await migrate(database.db);
    return {
      database,
      url,
      dir,
      drop: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const database = openDatabase(pgUrl, { schema, poolSize: 5, durableCommits: false });
  await whileNoSchemaIsDropped(pgUrl, async (admin) => {
    await admin.query(`create schema ${schema}`);
    await migrate(database.db, { schema });
  });
  return {
    database,
    url: pgUrl,
    schema,
    dir,
    drop: async () => {
      await database.close();
      await dropTestSchema(pgUrl, schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Files run side by side on one PostgreSQL database. Kysely's introspection (the migrator's "does
 * the migration table exist?") reads every schema and calls has_schema_privilege on each, which
 * fails with "schema ... does not exist" when another file drops its schema in between. So schema
 * drops take this advisory lock exclusively, and migrations and introspection take it shared.
 */
const SCHEMA_DROP_LOCK = 2_026_112_601;

async function withAdvisoryLock<T>(
  pgUrl: string,
  mode: "shared" | "exclusive",
  work: (admin: pg.Client) => Promise<T>,
): Promise<T> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    await admin.query(mode === "shared" ? "select pg_advisory_lock_shared($1)" : "select pg_advisory_lock($1)", [
      SCHEMA_DROP_LOCK,
    ]);
    return await work(admin);
  } finally {
    // Ending the session releases its advisory locks.
    await admin.end();
  }
}

/** Runs `work` (migrations, introspection) while no test schema can be dropped. */
export function whileNoSchemaIsDropped<T>(pgUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  return withAdvisoryLock(pgUrl, "shared", work);
}

/** Drops a schema a test made (its own, or one a library made beside it, such as the job queue's). */
export function dropTestSchema(pgUrl: string, schema: string): Promise<void> {
  return withAdvisoryLock(pgUrl, "exclusive", async (admin) => {
    await admin.query(`drop schema if exists ${schema} cascade`);
  });
}
