import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "#server/db/database.ts";
import { migrateToLatest } from "#server/db/migrate.ts";

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
export async function createTestDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(SCRATCH, "academy-test-"));
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const url = `sqlite:${join(dir, "test.db")}`;
    const database = openDatabase(url);
    await migrateToLatest(database.db);
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
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase(pgUrl, { schema, poolSize: 5, durableCommits: false });
  await migrateToLatest(database.db, { schema });
  return {
    database,
    url: pgUrl,
    schema,
    dir,
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
