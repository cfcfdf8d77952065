import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { BesideRow } from "./learner-state.ts";

// A learner's exam accommodation (an admin sets it): the exam and the course page's exam card read it.

/** The accommodation as a `learnerStatement` row beside the records (tag 'm'; PostgreSQL only, as every such row). */
export const accommodationRow = (userId: RawBuilder<unknown>) =>
  sql`select 'm' as tag, cast(null as timestamptz) as at, cast(null as text) as seq,
        json_build_object('timeMultiplier', "timeMultiplier") as doc
      from "learnerAccommodation" where "userId" = ${userId}`;

/** The multiplier among rows read beside the records; 1 when the learner has none. */
export function timeMultiplierIn(rows: BesideRow[]): number {
  const row = rows.find((r) => r.tag === "m");
  return row ? Number((row.doc as { timeMultiplier: unknown }).timeMultiplier) : 1;
}

export async function timeMultiplierOf(db: Kysely<DB> | Transaction<DB>, userId: string): Promise<number> {
  const row = await db
    .selectFrom("learnerAccommodation")
    .select("timeMultiplier")
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? Number(row.timeMultiplier) : 1;
}
