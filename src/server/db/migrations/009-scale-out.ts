import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/** State that several app instances share: request counters and background jobs. Times are epoch ms. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  // Fixed-window counters: per-route rate limits and failed sign-ins per account.
  await db.schema
    .createTable("hitCounter")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("windowEndsAt", t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hitCounter_windowEndsAt_idx").on("hitCounter").column("windowEndsAt").execute();

  // Periodic jobs: whoever moves nextRunAt forward runs that turn.
  await db.schema
    .createTable("scheduledJob")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("nextRunAt", t.bigint, (c) => c.notNull())
    .addColumn("runs", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastRunAt", t.bigint)
    .addColumn("lastError", "text")
    .execute();

  // One-off jobs of the in-process runner (SQLite); PostgreSQL keeps them in pg-boss's tables.
  await db.schema
    .createTable("queuedJob")
    .addColumn("id", t.serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("runAt", t.bigint, (c) => c.notNull())
    .addColumn("lockedUntil", t.bigint)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("doneAt", t.bigint)
    .addColumn("lastError", "text")
    .execute();
  await db.schema.createIndex("queuedJob_due_idx").on("queuedJob").columns(["name", "doneAt", "runAt"]).execute();
}
