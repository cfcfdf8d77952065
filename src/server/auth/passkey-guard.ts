import type { Kysely } from "kysely";
import { isRecord } from "#shared/guards.ts";
import {
  type CurrentUser,
  LAST_PASSKEY_MESSAGE,
  PASSKEY_OTHER_ACCOUNT_MESSAGE,
  PASSKEY_TAKEN_MESSAGE,
} from "#shared/schemas/auth.ts";
import type { DB } from "../db/schema.ts";

/** The credential id a WebAuthn answer names (`response.id`), as the passkey table stores it. */
function credentialIdOf(body: unknown): string | null {
  const response = isRecord(body) ? body.response : undefined;
  const id = isRecord(response) ? response.id : undefined;
  return typeof id === "string" && id.length > 0 && id.length <= 1024 ? id : null;
}

export interface Refusal {
  status: number;
  body: { message: string; code: string };
}

/**
 * What the passkey plugin leaves to us (docs/decisions/0054): a credential registered to one account
 * is never registered again, to it or another (WebAuthn lets an authenticator pick the id); an
 * assertion from a signed-in browser must be the account's own passkey (a re-confirmation, never a
 * switch to another account); the last passkey of an account that signs in with passkeys only stays
 * until password sign-in is back on. The plugin checks that a registration's challenge is the
 * session's and that a removed or renamed passkey is the session's.
 */
export async function passkeyRefusal(
  db: Kysely<DB>,
  path: string,
  body: unknown,
  user: CurrentUser | null,
): Promise<Refusal | null> {
  if (path === "passkey/verify-registration" || path === "passkey/verify-authentication") {
    const credentialId = credentialIdOf(body);
    if (credentialId === null) return null;
    const owner = await db
      .selectFrom("passkey")
      .select("userId")
      .where("credentialID", "=", credentialId)
      .executeTakeFirst();
    if (path === "passkey/verify-registration" && owner)
      return { status: 409, body: { message: PASSKEY_TAKEN_MESSAGE, code: "PASSKEY_TAKEN" } };
    if (path === "passkey/verify-authentication" && owner && user && owner.userId !== user.id)
      return { status: 403, body: { message: PASSKEY_OTHER_ACCOUNT_MESSAGE, code: "PASSKEY_OTHER_ACCOUNT" } };
    return null;
  }
  if (path === "passkey/delete-passkey" && user) {
    const row = await db
      .selectFrom("user")
      .select((eb) => [
        "passwordSignIn",
        eb
          .selectFrom("passkey")
          .select((p) => p.fn.countAll<number>().as("n"))
          .where("passkey.userId", "=", user.id)
          .as("passkeys"),
      ])
      .where("id", "=", user.id)
      .executeTakeFirst();
    if (row && !row.passwordSignIn && Number(row.passkeys) <= 1)
      return { status: 409, body: { message: LAST_PASSKEY_MESSAGE, code: "LAST_PASSKEY" } };
  }
  return null;
}

/** The account of this address signs in with passkeys only (its owner turned password sign-in off). */
export async function passwordSignInOff(db: Kysely<DB>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("user")
    .select("passwordSignIn")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined && !row.passwordSignIn;
}
