import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * One-off jobs (docs/decisions/0059): a row per piece of work that one event causes, written in the
 * transaction of that event (`trigger`) and run once by the `one-off-jobs` turn, with attempts
 * counted and back-off. `status` is queued, running, done or failed; `runAt` is when a queued row is
 * due and how long a running row's claim lasts. `key` makes work that several paths may cause one row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("oneOffJob")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.unique())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("runAt", t.timestamp, (c) => c.notNull())
    .addColumn("lastError", "text")
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addColumn("finishedAt", t.timestamp)
    .execute();
  await db.schema.createIndex("oneOffJob_due_idx").on("oneOffJob").columns(["status", "runAt"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("oneOffJob").execute();
}
