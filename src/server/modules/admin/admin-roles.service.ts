import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { DB } from "../../db/schema.ts";
import { conflict, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";

/**
 * Makes a learner an assessor or back. Admins keep their role here: it changes only from the command
 * line or ADMIN_EMAILS. Audited.
 */
export async function setAssessorRole(
  db: Kysely<DB>,
  actor: CurrentUser,
  userId: string,
  role: "learner" | "assessor",
): Promise<{ userId: string; role: "learner" | "assessor" }> {
  if (userId === actor.id) throw conflict("You cannot change your own role.");
  const user = await db.selectFrom("user").select(["email", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!user) throw notFound("Learner not found.");
  if (user.role === "admin") throw conflict("This account is an admin; change an admin's role from the command line.");
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("user")
      .set({ role, updatedAt: new Date().toISOString() })
      .where("id", "=", userId)
      .where("role", "!=", "admin")
      .execute();
    await recordAudit(trx, actor, role === "assessor" ? "role.assessor.grant" : "role.assessor.revoke", user.email);
  });
  return { userId, role };
}
