import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { enqueueEmail } from "../mail/outbox.ts";
import type { SecurityEvent } from "../mail/templates/account-security.tsx";

/** Tells the account's owner that its sign-in changed, through the outbox (docs/decisions/0054). */
export function securityMail(db: Kysely<DB>, appUrl: string) {
  const profileUrl = `${appUrl}/profile#security`;
  return async (userId: string, event: SecurityEvent, detail = ""): Promise<void> => {
    const owner = await db
      .selectFrom("user")
      .select(["email"])
      .where("id", "=", userId)
      .where("erasedAt", "is", null)
      .executeTakeFirst();
    if (!owner) return;
    await enqueueEmail(db, {
      to: owner.email,
      userId,
      template: "account-security",
      data: { event, detail, profileUrl },
      link: profileUrl,
    });
  };
}

const DEVICES_COOKIE = "academy_devices";
/** Accounts one browser remembers having signed in to (a shared computer has a few). */
const DEVICES_KEPT = 5;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether this browser signed in to the account before: a long-lived cookie holds, per account, an
 * HMAC of its id under the auth secret (nothing readable, nothing stored on the server). A sign-in
 * from a browser without it is a new device, and the owner is told.
 */
export function knownDevices(secret: string, secure: boolean) {
  const markOf = (userId: string) =>
    createHmac("sha256", secret).update(`known-device:${userId}`).digest("base64url").slice(0, 22);
  return {
    isKnown(cookieHeader: string | undefined, userId: string): boolean {
      return (readCookie(cookieHeader, DEVICES_COOKIE) ?? "").split(".").includes(markOf(userId));
    },
    /** The Set-Cookie line that remembers the account in this browser for a year. */
    remember(cookieHeader: string | undefined, userId: string): string {
      const mark = markOf(userId);
      const kept = (readCookie(cookieHeader, DEVICES_COOKIE) ?? "")
        .split(".")
        .filter((m) => /^[\w-]{22}$/.test(m) && m !== mark);
      const value = [mark, ...kept].slice(0, DEVICES_KEPT).join(".");
      return `${DEVICES_COOKIE}=${value}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
    },
  };
}
