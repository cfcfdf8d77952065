import { createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { badRequest } from "../../errors.ts";

/** The one topic a holder can unsubscribe from; receipts and security mail have none. */
export const REMINDER_TOPIC = "certificate-reminders";
const INVALID = "This unsubscribe link is not valid.";

const signatureOf = (secret: string, userId: string) =>
  createHmac("sha256", secret).update(`unsubscribe:${REMINDER_TOPIC}:${userId}`).digest("base64url");

/** `<userId base64url>.<HMAC>`: no sign-in needed, and no one can forge another holder's link. */
export function unsubscribeToken(secret: string, userId: string): string {
  return `${Buffer.from(userId).toString("base64url")}.${signatureOf(secret, userId)}`;
}

export function userIdOfToken(secret: string, token: string): string {
  const [encoded, signature] = token.split(".");
  const userId = Buffer.from(encoded ?? "", "base64url").toString("utf8");
  const expected = Buffer.from(signatureOf(secret, userId));
  const given = Buffer.from(signature ?? "");
  if (!userId || given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest(INVALID);
  return userId;
}

/** Records the opt-out; repeating it (a second click, a mail client's POST) changes nothing. */
export async function unsubscribeFromReminders(db: Kysely<DB>, secret: string, token: string): Promise<void> {
  const userId = userIdOfToken(secret, token);
  await db
    .insertInto("emailOptOut")
    .values({ userId, topic: REMINDER_TOPIC, createdAt: new Date().toISOString() })
    // A deleted account's link: nothing to record (the foreign key would refuse it).
    .onConflict((oc) => oc.columns(["userId", "topic"]).doNothing())
    .execute()
    .catch(async (error) => {
      const exists = await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
      if (exists) throw error;
    });
}
