import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

export interface Hits {
  count: number;
  windowEndsAt: number;
}

/**
 * Counts one hit on `key` in a fixed window, atomically in one statement, so every instance on the
 * database shares the count. A window that has ended starts again at 1.
 */
export async function countHit(db: Kysely<DB>, key: string, windowMs: number, now = Date.now()): Promise<Hits> {
  return db
    .insertInto("hitCounter")
    .values({ key, count: 1, windowEndsAt: now + windowMs })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({
        count: eb
          .case()
          .when("hitCounter.windowEndsAt", "<=", now)
          .then(1)
          .else(eb("hitCounter.count", "+", 1))
          .end(),
        windowEndsAt: eb
          .case()
          .when("hitCounter.windowEndsAt", "<=", now)
          .then(now + windowMs)
          .else(eb.ref("hitCounter.windowEndsAt"))
          .end(),
      })),
    )
    .returning(["count", "windowEndsAt"])
    .executeTakeFirstOrThrow();
}

/** The hits counted in the current window (0 when it has ended). */
export async function readHits(db: Kysely<DB>, key: string, now = Date.now()): Promise<Hits> {
  const row = await db
    .selectFrom("hitCounter")
    .select(["count", "windowEndsAt"])
    .where("key", "=", key)
    .where("windowEndsAt", ">", now)
    .executeTakeFirst();
  return row ?? { count: 0, windowEndsAt: now };
}

/** Takes back one hit counted in the current window (one that turned out not to count). */
export async function uncountHit(db: Kysely<DB>, key: string, now = Date.now()): Promise<void> {
  await db
    .updateTable("hitCounter")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("key", "=", key)
    .where("windowEndsAt", ">", now)
    .where("count", ">", 0)
    .execute();
}

export async function clearHits(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom("hitCounter").where("key", "=", key).execute();
}

export async function deleteEndedWindows(db: Kysely<DB>, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom("hitCounter").where("windowEndsAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
