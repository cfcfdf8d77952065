import type { Transaction } from "kysely";
import { requireLiveAccount } from "../db/account-lock.ts";
import type { DB } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";

/**
 * Recovery of an account that lost every second factor (docs/decisions/0054): its two-factor secret,
 * backup codes and passkeys go (the password signs in again if it was off), and so does every session (whoever holds one signs in again). Done by
 * another admin or from the command line, never by e-mail alone; the owner is told, in the same
 * transaction. A staff role waits again until a new factor is set up. False when there is no account.
 */
export async function resetSecondFactors(
  trx: Transaction<DB>,
  userId: string,
  by: string,
  profileUrl: string,
): Promise<{ email: string } | null> {
  const user = await trx.selectFrom("user").select(["email"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  await requireLiveAccount(trx, userId);
  await trx.deleteFrom("twoFactor").where("userId", "=", userId).execute();
  await trx.deleteFrom("passkey").where("userId", "=", userId).execute();
  await trx
    .updateTable("user")
    .set({ twoFactorEnabled: false, passwordSignIn: true, updatedAt: new Date().toISOString() })
    .where("id", "=", userId)
    .execute();
  await trx.deleteFrom("session").where("userId", "=", userId).execute();
  await enqueueEmail(trx, {
    to: user.email,
    userId,
    template: "account-security",
    data: { event: "factors-reset", detail: by, profileUrl },
    link: profileUrl,
  });
  return user;
}
