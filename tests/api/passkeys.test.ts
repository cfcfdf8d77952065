import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_SIGN_IN_OFF_MESSAGE, STEP_UP_MAX_AGE_MS } from "#shared/schemas/auth.ts";
import { softPasskey } from "../setup/passkey.ts";
import { confirmedAgo as confirmedAgoOf, paidOrder, securityMailsTo, withCookies } from "../setup/second-factor.ts";
import { createTestApp, request, signUpUser, TEST_ORIGIN, type TestApp, type TestUser } from "../setup/test-app.ts";

// Passkeys through the API (docs/decisions/0054), with a software authenticator: a re-confirmation
// by passkey, passkeys of another account refused, and password sign-in turned off and on.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { STAFF_SECOND_FACTOR: "on" } });
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
let address = 0;
function call(method: "GET" | "POST" | "PUT", url: string, cookie: string, payload?: object) {
  address++;
  return t.app.inject({
    method,
    url,
    remoteAddress: `198.18.0.${address % 250}`,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });
}
const me = async (cookie: string) => (await request(t.app, "GET", "/api/auth/user", { cookie })).json();
const confirmedAgo = (cookie: string, ms: number) => confirmedAgoOf(t, cookie, ms);

async function withPasskey(role?: "admin") {
  const user = await signUpUser(t.app);
  if (role) await db().updateTable("user").set({ role }).where("id", "=", user.id).execute();
  const key = softPasskey();
  const added = await key.register(t, user.cookie, "Laptop");
  expect(added.status).toBe(200);
  return { user, key };
}

async function adminWithOrder() {
  const { user: admin, key } = await withPasskey("admin");
  return { admin, key, order: await paidOrder(t) };
}
const refund = (cookie: string, id: string) => call("POST", `/api/admin/orders/${id}/refund`, cookie);

describe("a passkey answers a re-confirmation", () => {
  it("a refund past the 10 minutes is asked again, a passkey of the account confirms it, and it goes through", async () => {
    const { admin, key, order } = await adminWithOrder();
    expect(await me(admin.cookie)).toMatchObject({ role: "admin" });
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS + 1_000);
    const asked = await refund(admin.cookie, order.id);
    expect([asked.statusCode, asked.json().code]).toEqual([403, "STEP_UP_REQUIRED"]);

    const confirmed = await key.assert(t, admin.cookie);
    expect(confirmed.status).toBe(200);
    // The passkey's session replaces the one it confirmed.
    expect(await me(admin.cookie)).toBeNull();
    expect(await me(confirmed.cookie)).toMatchObject({ email: admin.email, role: "admin" });
    expect((await refund(confirmed.cookie, order.id)).statusCode).toBe(200);
  });
});

describe("attacks: a passkey of another account", () => {
  it("a registration answer to account A's challenge, sent while signed in as B, is refused", async () => {
    const a = await signUpUser(t.app);
    const b = await signUpUser(t.app);
    const res = await softPasskey().register(t, b.cookie, "Borrowed", a.cookie);
    expect(res.status).toBe(401);
    expect(await db().selectFrom("passkey").select("id").where("userId", "in", [a.id, b.id]).execute()).toEqual([]);
  });

  it("a credential already registered to A cannot be registered to B, and A's passkey still signs A in", async () => {
    const { user: a, key } = await withPasskey();
    const b = await signUpUser(t.app);
    const copy = softPasskey(Buffer.from(key.credentialId, "base64url"));
    const res = await copy.register(t, b.cookie, "Same id");
    expect([res.status, res.body.code]).toEqual([409, "PASSKEY_TAKEN"]);
    expect(await db().selectFrom("passkey").select("id").where("userId", "=", b.id).execute()).toEqual([]);
    const signIn = await key.assert(t, "");
    expect(await me(signIn.cookie)).toMatchObject({ email: a.email });
  });

  it("B cannot remove or rename A's passkey by its id", async () => {
    const { user: a } = await withPasskey();
    const b = await signUpUser(t.app);
    const row = await db()
      .selectFrom("passkey")
      .select(["id", "name"])
      .where("userId", "=", a.id)
      .executeTakeFirstOrThrow();
    expect((await call("POST", "/api/auth/passkey/delete-passkey", b.cookie, { id: row.id })).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/auth/passkey/update-passkey", b.cookie, { id: row.id, name: "Mine now" })).statusCode,
    ).toBe(401);
    expect(await db().selectFrom("passkey").select("name").where("id", "=", row.id).executeTakeFirst()).toEqual({
      name: "Laptop",
    });
  });

  it("a re-confirmation with A's passkey while signed in as admin B is refused, and B's refund stays refused", async () => {
    const { admin, order } = await adminWithOrder();
    const { key: strangers } = await withPasskey();
    await confirmedAgo(admin.cookie, STEP_UP_MAX_AGE_MS + 1_000);
    const res = await strangers.assert(t, admin.cookie);
    expect([res.status, res.body.code]).toEqual([403, "PASSKEY_OTHER_ACCOUNT"]);
    expect(res.setCookie.some((line) => line.includes("session_token"))).toBe(false);
    expect(await me(res.cookie)).toMatchObject({ email: admin.email });
    expect((await refund(res.cookie, order.id)).json().code).toBe("STEP_UP_REQUIRED");
  });
});

describe("password sign-in off and on for passkey users", () => {
  const signIn = (user: TestUser, password = user.password) =>
    call("POST", "/api/auth/sign-in/email", "", { email: user.email, password });
  const setPassword = (cookie: string, enabled: boolean) =>
    call("PUT", "/api/profile/password-sign-in", cookie, { enabled });
  const mails = (userId: string) => securityMailsTo(t, userId);

  it("without a passkey the password stays on", async () => {
    const user = await signUpUser(t.app);
    const res = await setPassword(user.cookie, false);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Add a passkey first/);
    expect((await call("GET", "/api/profile/password-sign-in", user.cookie)).json()).toEqual({ enabled: true });
    expect((await signIn(user)).statusCode).toBe(200);
  });

  it("off: the right password is refused with a clear message, the passkey signs in; on again: the password works", async () => {
    const { user, key } = await withPasskey();
    // Adding a passkey confirms nothing; signing in with it does.
    expect((await setPassword(user.cookie, false)).json().code).toBe("STEP_UP_REQUIRED");
    const signedIn = await key.assert(t, user.cookie);
    const off = await setPassword(signedIn.cookie, false);
    expect(off.json()).toEqual({ enabled: false });
    expect((await call("GET", "/api/profile/password-sign-in", signedIn.cookie)).json()).toEqual({ enabled: false });
    const sessionsBefore = await db().selectFrom("session").select("id").where("userId", "=", user.id).execute();

    const refused = await signIn(user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "PASSWORD_SIGN_IN_OFF", message: PASSWORD_SIGN_IN_OFF_MESSAGE });
    expect(await me(withCookies("", refused))).toBeNull();
    expect(await db().selectFrom("session").select("id").where("userId", "=", user.id).execute()).toEqual(
      sessionsBefore,
    );
    // A wrong password learns nothing more than a wrong password.
    expect((await signIn(user, "wrong-password-1")).statusCode).toBe(401);

    const byPasskey = await key.assert(t, "");
    expect(await me(byPasskey.cookie)).toMatchObject({ email: user.email });
    // The last passkey stays while it is the only way in.
    const row = await db().selectFrom("passkey").select("id").where("userId", "=", user.id).executeTakeFirstOrThrow();
    const remove = await call("POST", "/api/auth/passkey/delete-passkey", byPasskey.cookie, { id: row.id });
    expect([remove.statusCode, remove.json().code]).toEqual([409, "LAST_PASSKEY"]);

    expect((await setPassword(byPasskey.cookie, true)).json()).toEqual({ enabled: true });
    expect((await signIn(user)).statusCode).toBe(200);
    expect(await mails(user.id)).toEqual(expect.arrayContaining(["password-sign-in-off", "password-sign-in-on"]));
  });

  it("turning it off or on needs a fresh confirmation", async () => {
    const { user, key } = await withPasskey();
    await confirmedAgo(user.cookie, STEP_UP_MAX_AGE_MS + 1_000);
    expect((await setPassword(user.cookie, false)).json().code).toBe("STEP_UP_REQUIRED");
    const fresh = await key.assert(t, user.cookie);
    expect((await setPassword(fresh.cookie, false)).statusCode).toBe(200);
  });

  it("a reset of the factors by an admin turns the password back on", async () => {
    const { user, key } = await withPasskey();
    expect((await setPassword((await key.assert(t, user.cookie)).cookie, false)).statusCode).toBe(200);
    const { user: admin, key: adminKey } = await withPasskey("admin");
    const adminCookie = (await adminKey.assert(t, admin.cookie)).cookie;
    expect((await call("POST", `/api/admin/learners/${user.id}/second-factors/reset`, adminCookie)).statusCode).toBe(
      200,
    );
    expect((await signIn(user)).statusCode).toBe(200);
  });
});
