import { ApiError } from "./api-client.ts";

/**
 * Better Auth's two-factor endpoints (docs/decisions/0054), called as the browser's own requests so
 * the session and challenge cookies go along. A refusal throws the ApiError every other call throws.
 */
export async function authPost<T>(path: string, body?: object): Promise<T> {
  const response = await fetch(`/api/auth/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: body ? { "content-type": "application/json" } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, `${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A code typed with spaces or dashes as apps show it: TOTP codes are six digits, backup codes keep their dash. */
export const cleanCode = (code: string) => code.trim().replace(/\s+/g, "");

/** The account's two-factor state, from Better Auth's session (its plugin adds the field). */
export async function twoFactorEnabled(): Promise<boolean> {
  const response = await fetch("/api/auth/get-session", { credentials: "same-origin" });
  if (!response.ok) return false;
  const body = (await response.json()) as { user?: { twoFactorEnabled?: boolean } } | null;
  return body?.user?.twoFactorEnabled === true;
}

/** Which second factors the signed-in account has: the step-up prompt offers those. */
export interface Factors {
  totp: boolean;
  passkey: boolean;
}

export async function accountFactors(): Promise<Factors> {
  const [totp, passkeys] = await Promise.all([
    twoFactorEnabled(),
    fetch("/api/auth/passkey/list-user-passkeys", { credentials: "same-origin" }).then((r) =>
      r.ok ? (r.json() as Promise<unknown[]>) : [],
    ),
  ]);
  return { totp, passkey: Array.isArray(passkeys) && passkeys.length > 0 };
}
