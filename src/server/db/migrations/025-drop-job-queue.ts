import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/**
 * The in-process runner's one-off job queue was never used: every background job is periodic
 * (`JobRunner.every`), so its table goes (docs/decisions/0035).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("queuedJob").ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
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
