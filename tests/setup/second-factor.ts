import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { buyInSandbox, type cookieFrom, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "./test-app.ts";

let address = 0;
/** Each setup from its own client address: the per-address limit on /two-factor/* stays out of the way. */
const post = (t: TestApp, url: string, cookie: string, payload: object) => {
  address++;
  return t.app.inject({
    method: "POST",
    url,
    remoteAddress: `192.0.2.${(address % 200) + 50}`,
    headers: { origin: TEST_ORIGIN, cookie },
    payload,
  });
};

/** An account's authenticator: the secret from the QR code's URI, and codes computed from it. */
export interface Authenticator {
  secret: string;
  backupCodes: string[];
  /** The TOTP code of the time step `offset` steps from now (the server accepts -1, 0 and +1). */
  code(offset?: number): Promise<string>;
  /** A code the server accepts now that is none of `used`: this step's, the next one's or the last one's. */
  freshCode(...used: string[]): Promise<string>;
  /** Every code accepted so far through turnOnTwoFactor (the first one). */
  used: string[];
}

export function authenticatorFor(totpURI: string, backupCodes: string[] = []): Authenticator {
  const encoded = new URL(totpURI).searchParams.get("secret") ?? "";
  const secret = new TextDecoder().decode(base32.decode(encoded));
  const code = (offset = 0) => createOTP(secret).hotp(Math.floor(Date.now() / 30_000) + offset);
  return {
    secret,
    backupCodes,
    code,
    used: [],
    async freshCode(...used) {
      for (const offset of [0, 1, -1]) {
        const candidate = await code(offset);
        if (!used.includes(candidate)) return candidate;
      }
      throw new Error("no fresh code");
    },
  };
}

/** Merges the cookies an answer set into the ones a client held (as a browser's jar does). */
export function withCookies(cookie: string, response: Parameters<typeof cookieFrom>[0]): string {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair]),
  );
  const raw = response.headers["set-cookie"];
  for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const pair = line.split(";")[0] ?? "";
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.endsWith("=") || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * Turns two-factor on as the profile does: the password, the QR code's secret, a first code. The
 * session is replaced (user.cookie is the new one) and counts as just confirmed.
 */
export async function turnOnTwoFactor(t: TestApp, user: TestUser): Promise<Authenticator> {
  const enabled = await post(t, "/api/auth/two-factor/enable", user.cookie, { password: user.password });
  if (enabled.statusCode !== 200) throw new Error(`enable failed: ${enabled.statusCode} ${enabled.body}`);
  const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
  const authenticator = authenticatorFor(totpURI, backupCodes);
  const first = await authenticator.code();
  const verified = await post(t, "/api/auth/two-factor/verify-totp", user.cookie, { code: first });
  authenticator.used.push(first);
  if (verified.statusCode !== 200) throw new Error(`first code refused: ${verified.statusCode} ${verified.body}`);
  user.cookie = withCookies(user.cookie, verified);
  return authenticator;
}

/** A buyer's paid order of fixture-basics, for the refund a step-up guards. */
export async function paidOrder(t: TestApp): Promise<{ id: string }> {
  const buyer = await signUpUser(t.app);
  await buyInSandbox(t, buyer, "fixture-basics");
  return t.testDb.database.db
    .selectFrom("order")
    .select("id")
    .where("userId", "=", buyer.id)
    .where("status", "=", "paid")
    .executeTakeFirstOrThrow();
}

/** The session of `cookie` last confirmed a second factor `ms` ago. */
export async function confirmedAgo(t: TestApp, cookie: string, ms: number): Promise<void> {
  const token = decodeURIComponent(/session_token=([^;.]+)/.exec(cookie)?.[1] ?? "");
  await t.testDb.database.db
    .updateTable("session")
    .set({ secondFactorAt: new Date(Date.now() - ms).toISOString() })
    .where("token", "=", token)
    .execute();
}

/** The security e-mails (their events) queued for an account. */
export async function securityMailsTo(t: TestApp, userId: string): Promise<string[]> {
  const rows = await t.testDb.database.db
    .selectFrom("outboxEmail")
    .select("data")
    .where("userId", "=", userId)
    .where("template", "=", "account-security")
    .execute();
  return rows.map((r) => JSON.parse(r.data).event as string);
}
