import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { DB } from "../../db/schema.ts";

/** Every admin action leaves a line: who, what, on what, when. Written in the action's own transaction. */
export async function recordAudit(
  db: Kysely<DB> | Transaction<DB>,
  /** The acting account; `id: null` for the operator at the command line. */
  actor: Pick<CurrentUser, "email"> & { id: string | null },
  action: string,
  target: string,
  details: Record<string, unknown> = {},
) {
  await db
    .insertInto("auditLog")
    .values({
      id: randomUUID(),
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      target,
      details: JSON.stringify(details),
      createdAt: new Date().toISOString(),
    })
    .execute();
}
