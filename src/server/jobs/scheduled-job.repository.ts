import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

export async function ensureScheduledJob(db: Kysely<DB>, name: string, firstRunAt: number): Promise<void> {
  await db
    .insertInto("scheduledJob")
    .values({ name, nextRunAt: firstRunAt })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
}

/** Takes this turn of a periodic job; only one caller per turn gets true, across every instance. */
export async function claimScheduledTurn(db: Kysely<DB>, name: string, intervalMs: number, now = Date.now()) {
  // A little early, so a timer ticking every interval does not miss every other turn by a millisecond.
  const slack = Math.min(100, intervalMs / 10);
  const result = await db
    .updateTable("scheduledJob")
    .set((eb) => ({ nextRunAt: now + intervalMs - slack, lastRunAt: now, runs: eb("runs", "+", 1) }))
    .where("name", "=", name)
    .where("nextRunAt", "<=", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts a run the queue itself handed out (pg-boss), so runs are visible the same way on both engines. */
export async function recordScheduledRun(db: Kysely<DB>, name: string, intervalMs: number, now = Date.now()) {
  await db
    .insertInto("scheduledJob")
    .values({ name, nextRunAt: now + intervalMs, lastRunAt: now, runs: 1 })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({ nextRunAt: now + intervalMs, lastRunAt: now, runs: eb("scheduledJob.runs", "+", 1) })),
    )
    .execute();
}

export async function recordScheduledError(db: Kysely<DB>, name: string, error: unknown) {
  await db
    .updateTable("scheduledJob")
    .set({ lastError: error instanceof Error ? error.message : String(error) })
    .where("name", "=", name)
    .execute();
}
