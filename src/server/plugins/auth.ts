import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import { z } from "zod";
import { isRecord } from "#shared/guards.ts";
import {
  type CurrentUser,
  PASSWORD_SIGN_IN_OFF,
  PASSWORD_SIGN_IN_OFF_MESSAGE,
  passwordResetRequestedSchema,
  passwordResetRequestSchema,
  type Role,
  SECOND_FACTOR_REQUIRED,
  STEP_UP_MAX_AGE_MS,
  STEP_UP_REQUIRED,
  type StaffRole,
  staffRoleSchema,
} from "#shared/schemas/auth.ts";
import { type Auth, CLIENT_IP_HEADER } from "../auth/auth.ts";
import { captureAuthFailure } from "../auth/auth-failures.ts";
import {
  beginCodeAttempt,
  CODE_PATHS,
  CODE_REUSED_MESSAGE,
  codeLockedMessage,
  markSecondFactor,
  pendingSignIn,
} from "../auth/code-guard.ts";
import { passkeyRefusal, passwordSignInOff } from "../auth/passkey-guard.ts";
import { knownDevices, securityMail } from "../auth/security-mail.ts";
import { createSessionLookup, liveSession, type SessionUserRow } from "../auth/session-cookie.ts";
import { describeDevice } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import { isDatabaseBusy, isDatabaseUnavailable } from "../db/database.ts";
import type { DB } from "../db/schema.ts";
import { AppError, forbidden, unauthorized } from "../errors.ts";
import {
  accountLockedMessage,
  clearFailedSignIns,
  recordFailedSignIn,
  releaseSignInSlot,
  reserveSignInSlot,
  SIGN_IN_FAILURE_LIMIT,
} from "../limits/sign-in-lockout.ts";
import type { SecurityEvent } from "../mail/templates/account-security.tsx";

declare module "fastify" {
  interface FastifyContextConfig {
    /** An action that moves money or credentials: a fresh second factor or passkey first (decision 0054). */
    stepUp?: boolean;
  }
  interface FastifyInstance {
    refreshSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user from the session cookie, looked up once per request. */
    currentUser(): Promise<CurrentUser | null>;
    _currentUser?: Promise<CurrentUser | null>;
    /**
     * For a read that fetches the session row itself, together with its own rows (one PostgreSQL
     * round trip): the token of the signed cookie, or null when there is none or its signature is
     * wrong; undefined once the user is already known (then call `currentUser`).
     */
    sessionToken(): string | null | undefined;
    /** The signed-in user from a session row read with `sessionToken()`; `currentUser` answers it from then on. */
    adoptSession(row: SessionUserRow | undefined): Promise<CurrentUser | null>;
  }
}

/** What a request's session says about second factors, beside the user it resolved to. */
interface SessionFacts {
  sessionId: string;
  /** When the session last confirmed a second factor or passkey; null when it never did. */
  secondFactorAt: string | null;
  /** The account has two-factor or a passkey. */
  hasSecondFactor: boolean;
  /** Step-up applies (always with a second factor; without one only while staff need one). */
  stepUpApplies: boolean;
}
const sessionFacts = new WeakMap<CurrentUser, SessionFacts>();

const STAFF_ROLES: ReadonlySet<string> = new Set(staffRoleSchema.options);
const isStaffRole = (role: string): role is StaffRole => STAFF_ROLES.has(role);

/** The request's headers for Better Auth, with the client address our proxy settings resolved. */
function toFetchHeaders(request: FastifyRequest): Headers {
  const headers = fromNodeHeaders(request.headers);
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

export function registerAuth(app: FastifyInstance, auth: Auth, config: Config, db: Kysely<DB>) {
  const adminEmails = new Set(config.adminEmails);
  const lookup = createSessionLookup(db, config.authSecret, config.appUrl.startsWith("https://"));

  const toCurrentUser = (u: SessionUserRow | null): CurrentUser | null => {
    if (!u) return null;
    // A listed e-mail is admin only once its owner has proved it (verification link): signing up first grants nothing.
    const listed = adminEmails.has(u.email.toLowerCase()) && u.emailVerified;
    const held: Role = u.role === "admin" || listed ? "admin" : isStaffRole(u.role) ? u.role : "learner";
    // Staff without a passkey or two-factor get a learner's rights, whatever granted the role
    // (decision 0054): every staff route checks `role`, so none of them opens.
    const hasSecondFactor = Boolean(u.twoFactorEnabled) || Boolean(u.hasPasskey);
    const roleOnHold = held !== "learner" && config.staffSecondFactor && !hasSecondFactor ? held : undefined;
    const user: CurrentUser = {
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      nameOrder: u.nameOrder,
      role: roleOnHold ? "learner" : held,
      ...(roleOnHold ? { roleOnHold } : {}),
    };
    sessionFacts.set(user, {
      sessionId: u.sessionId,
      secondFactorAt: u.secondFactorAt === null ? null : new Date(u.secondFactorAt).toISOString(),
      hasSecondFactor,
      stepUpApplies: hasSecondFactor || config.staffSecondFactor,
    });
    return user;
  };

  app.decorateRequest("currentUser", function (this: FastifyRequest) {
    this._currentUser ??= lookup(this.headers.cookie).then(toCurrentUser);
    return this._currentUser;
  });
  app.decorateRequest("sessionToken", function (this: FastifyRequest) {
    return this._currentUser ? undefined : lookup.token(this.headers.cookie);
  });
  app.decorateRequest("adoptSession", function (this: FastifyRequest, row: SessionUserRow | undefined) {
    this._currentUser ??= Promise.resolve(toCurrentUser(liveSession(row)));
    return this._currentUser;
  });

  // After the route's own access check (an onRequest hook or the schema), before its handler.
  app.addHook("preHandler", async (request) => {
    if (request.routeOptions.config.stepUp) requireStepUp(await requireUser(request));
  });

  /** Better Auth's full session check, which also extends an active session; used once per page load. */
  app.decorate("refreshSession", async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await auth.api.getSession({ headers: toFetchHeaders(request), asResponse: true });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) reply.header("set-cookie", cookies);
  });

  // Better Auth's own endpoints: sign-up, sign-in, sign-out, password reset.
  async function callBetterAuth(request: FastifyRequest): Promise<Response> {
    const url = new URL(request.url, config.appUrl);
    for (const key of REDIRECT_KEYS) {
      const value = url.searchParams.get(key);
      if (value !== null) url.searchParams.set(key, asciiRedirect(value));
    }
    const init: RequestInit = { method: request.method, headers: toFetchHeaders(request) };
    if (request.method === "POST" && request.body !== undefined)
      init.body = JSON.stringify(withAsciiRedirects(request.body));
    const { result, failure } = await captureAuthFailure(() => auth.handler(new Request(url, init)));
    // Our error handler logs it and answers 503 when the database is busy or away, 500 otherwise.
    // Better Auth answers some of them with a 4xx of its own (sign-up: 422): the database's state wins.
    if (failure !== undefined && (result.status >= 500 || isDatabaseBusy(failure) || isDatabaseUnavailable(failure)))
      throw failure;
    return result;
  }

  async function sendAuthResponse(reply: FastifyReply, response: Response, extraCookies: string[] = []) {
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      // Better Auth's own "no-store" keeps the "private" every personal API answer carries (security.ts).
      if (key === "cache-control" && value === "no-store") reply.header(key, "private, no-store");
      else if (key !== "set-cookie") reply.header(key, value);
    });
    const cookies = [...response.headers.getSetCookie(), ...extraCookies];
    if (cookies.length) reply.header("set-cookie", cookies);
    const text = await response.text();
    if (response.status >= 400) {
      // Better Auth errors carry `message`; keep that shape, and give one to the errors that have none.
      const fallback = response.statusText || (response.status === 404 ? "Not found" : "Request refused");
      try {
        const parsed: unknown = JSON.parse(text);
        const body = isRecord(parsed) ? parsed : {};
        const message = typeof body.message === "string" && body.message ? body.message : fallback;
        return reply.type("application/json").send({ ...body, message });
      } catch {
        return reply.type("application/json").send({ message: text || fallback });
      }
    }
    return reply.send(text || null);
  }

  const secure = config.appUrl.startsWith("https://");
  const pendingSignInUser = pendingSignIn(db, config.authSecret, secure);
  const notify = securityMail(db, config.appUrl);
  const devices = knownDevices(config.authSecret, secure);

  /** A sign-in completed for the account: a browser that never signed in to it before is a new device. */
  async function signedIn(request: FastifyRequest, userId: string): Promise<string[]> {
    if (!devices.isKnown(request.headers.cookie, userId))
      await notify(userId, "new-device", describeDevice(request.headers["user-agent"] ?? null));
    return [devices.remember(request.headers.cookie, userId)];
  }

  /** The session token of the session cookie an answer sets, if it sets one. */
  function newSessionToken(response: Response): string | null {
    for (const line of response.headers.getSetCookie()) {
      const match = /^(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(line);
      if (!match?.[1]) continue;
      const value = decodeURIComponent(match[1]);
      const dot = value.lastIndexOf(".");
      return dot > 0 ? value.slice(0, dot) : null;
    }
    return null;
  }

  /** The account a successful Better Auth answer names (sign-in, sign-up). */
  async function userIdOf(response: Response): Promise<string | null> {
    try {
      const body: unknown = await response.clone().json();
      return isRecord(body) && isRecord(body.user) && typeof body.user.id === "string" ? body.user.id : null;
    } catch {
      return null;
    }
  }

  /** The session token a successful Better Auth answer carries (sign-in, code accepted), if any. */
  async function tokenOf(response: Response): Promise<string | null> {
    try {
      const body: unknown = await response.clone().json();
      return isRecord(body) && typeof body.token === "string" ? body.token : null;
    } catch {
      return null;
    }
  }

  /** A TOTP or backup code: counted per account and refused when replayed, before Better Auth checks it. */
  async function forwardCode(request: FastifyRequest, reply: FastifyReply, path: string) {
    const body = request.body;
    const code = isRecord(body) && typeof body.code === "string" ? body.code.trim() : "";
    const sessionUser = (await request.currentUser())?.id;
    const userId = sessionUser ?? (await pendingSignInUser(request.headers.cookie));
    if (!userId || code === "" || code.length > 64) return sendAuthResponse(reply, await callBetterAuth(request));
    const wasOn = await db
      .selectFrom("user")
      .select("twoFactorEnabled")
      .where("id", "=", userId)
      .executeTakeFirst()
      .then((row) => Boolean(row?.twoFactorEnabled));
    const attempt = await beginCodeAttempt(app.deps.counters, userId, path, code);
    if (attempt.lockedForMs > 0) {
      return reply
        .status(429)
        .header("retry-after", String(Math.ceil(attempt.lockedForMs / 1000)))
        .send({ message: codeLockedMessage(attempt.lockedForMs), code: "CODE_LOCKED" });
    }
    if (attempt.reused) return reply.status(401).send({ message: CODE_REUSED_MESSAGE, code: "CODE_REUSED" });
    let response: Response;
    try {
      response = await callBetterAuth(request);
    } catch (error) {
      await attempt.release();
      throw error;
    }
    const cookies: string[] = [];
    if (response.status === 401) {
      await attempt.failed();
      // The code that locks tells the owner, as the password that locks does: whoever typed it may know the password.
      if (attempt.number === SIGN_IN_FAILURE_LIMIT) await notify(userId, "codes-paused", String(SIGN_IN_FAILURE_LIMIT));
    } else if (response.ok) {
      await attempt.succeeded();
      // The answer names the session it confirmed; turning two-factor on replaces the session, and the
      // new one (in the cookie) counts as confirmed too.
      for (const token of [await tokenOf(response), newSessionToken(response)])
        if (token) await markSecondFactor(db, token);
      if (path === "two-factor/verify-backup-code") await notify(userId, "backup-code-used");
      else if (!wasOn) await notify(userId, "two-factor-on");
      if (!sessionUser) cookies.push(...(await signedIn(request, userId)));
    } else await attempt.release();
    return sendAuthResponse(reply, response, cookies);
  }

  /** What the owner is told after Better Auth changed the account's sign-in, by endpoint. */
  const TOLD: Record<string, SecurityEvent> = {
    "two-factor/disable": "two-factor-off",
    "two-factor/generate-backup-codes": "backup-codes-renewed",
    "change-password": "password-changed",
    "passkey/verify-registration": "passkey-added",
    "passkey/delete-passkey": "passkey-removed",
  };

  /** Better Auth endpoints that change the account's sign-in, or open a session. */
  async function forwardAccountChange(request: FastifyRequest, reply: FastifyReply, path: string) {
    const user = await request.currentUser();
    // New backup codes replace the old: the session must have confirmed a code within 10 minutes.
    if (path === "two-factor/generate-backup-codes" && user) requireStepUp(user);
    const refused = await passkeyRefusal(db, path, request.body, user);
    if (refused) return reply.status(refused.status).send(refused.body);
    const response = await callBetterAuth(request);
    if (!response.ok) return sendAuthResponse(reply, response);
    const told = TOLD[path];
    if (told && user) await notify(user.id, told);
    const cookies: string[] = [];
    if (path === "sign-up/email") {
      const id = await userIdOf(response);
      if (id) cookies.push(devices.remember(request.headers.cookie, id));
    }
    // A passkey sign-in opens a session that counts as confirmed (a passkey is a second factor).
    if (path === "passkey/verify-authentication") {
      const token = newSessionToken(response);
      if (token) await markSecondFactor(db, token);
      // A re-confirmation from a signed-in browser (same account: passkeyRefusal): the new session replaces the old one.
      if (user && token)
        await db
          .deleteFrom("session")
          .where("id", "=", sessionIdOf(user) ?? "")
          .execute();
      const id = await userIdOf(response);
      if (id && !user) cookies.push(...(await signedIn(request, id)));
    }
    return sendAuthResponse(reply, response, cookies);
  }

  async function forwardToBetterAuth(request: FastifyRequest, reply: FastifyReply) {
    const params: unknown = request.params;
    const path = isRecord(params) && typeof params["*"] === "string" ? params["*"] : "";
    if (request.method === "POST" && CODE_PATHS.has(path)) return forwardCode(request, reply, path);
    if (
      request.method === "POST" &&
      (path in TOLD || path === "sign-up/email" || path === "passkey/verify-authentication")
    )
      return forwardAccountChange(request, reply, path);
    const email = isRecord(params) && params["*"] === "sign-in/email" ? emailOf(request.body) : null;
    if (!email) return sendAuthResponse(reply, await callBetterAuth(request));
    // Guesses per account, counted in the shared counters (Redis or the database) whatever address or
    // instance they come from; the
    // slot is taken before the password is checked, so parallel guesses cannot pass the limit.
    const { counters } = app.deps;
    const slot = await reserveSignInSlot(counters, email);
    if (slot.lockedForMs > 0) {
      return reply
        .status(429)
        .header("retry-after", String(Math.ceil(slot.lockedForMs / 1000)))
        .send({ message: accountLockedMessage(slot.lockedForMs) });
    }
    let response: Response;
    try {
      response = await callBetterAuth(request);
    } catch (error) {
      await releaseSignInSlot(counters, email);
      throw error;
    }
    const cookies: string[] = [];
    if (response.status === 401) await recordFailedSignIn({ db, appUrl: config.appUrl }, email, slot);
    else if (response.ok && (await passwordSignInOff(db, email))) {
      // Checked after the password, so the refusal tells nothing to someone who does not know it.
      await releaseSignInSlot(counters, email);
      const token = await tokenOf(response);
      if (token) await db.deleteFrom("session").where("token", "=", token).execute();
      return reply.status(403).send({ message: PASSWORD_SIGN_IN_OFF_MESSAGE, code: PASSWORD_SIGN_IN_OFF });
    } else if (response.ok) {
      await clearFailedSignIns(counters, email);
      // Signed in with the password alone (no code asked): the device check happens now.
      const userId = (await tokenOf(response)) ? await userIdOf(response) : null;
      if (userId) cookies.push(...(await signedIn(request, userId)));
    } else await releaseSignInSlot(counters, email);
    return sendAuthResponse(reply, response, cookies);
  }

  // A reset request answers before any work that depends on the address: validation and the per-client
  // limit are all it does first, the same for known and unknown addresses. Better Auth then looks the
  // address up, stores the token and mails the link (at most 3 an hour per account) in the background.
  app.post(
    "/api/auth/request-password-reset",
    {
      schema: { body: passwordResetRequestSchema, response: { 200: passwordResetRequestedSchema } },
      config: { rateLimit: { max: 5, timeWindow: "1 minute" } },
    },
    async (request) => {
      const { email, redirectTo = "/reset-password" } = request.body as z.infer<typeof passwordResetRequestSchema>;
      const headers = toFetchHeaders(request);
      app.deps.background.track(
        auth.api.requestPasswordReset({ body: { email, redirectTo }, headers }),
        "password reset request",
      );
      return {
        status: true as const,
        message: "If this email exists in our system, check your email for the reset link",
      };
    },
  );

  // Schemas so that Better Auth's input passes the shared plain-text refinement first. Its answers
  // are its own: left out of the OpenAPI document, whose description names the endpoints.
  const params = z.object({ "*": z.string() });
  const querystring = z.record(z.string(), z.unknown());
  const response = { "2xx": z.unknown() };
  app.get("/api/auth/*", { schema: { params, querystring, response, hide: true } }, forwardToBetterAuth);
  app.post(
    "/api/auth/*",
    { schema: { params, querystring, body: z.unknown(), response, hide: true } },
    forwardToBetterAuth,
  );
}

/** Where Better Auth sends the browser after a link or a sign-in; it becomes a Location header. */
const REDIRECT_KEYS = ["callbackURL", "redirectTo", "errorCallbackURL", "newUserCallbackURL"] as const;

/**
 * A Location header carries only visible ASCII: any other character (U+3000, a space) in a redirect
 * target is percent-encoded on its way in, or Better Auth's redirect from the mailed link would fail
 * with a 500. Percent escapes already there are kept as they are.
 */
export function asciiRedirect(value: string): string {
  return value.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
}

function withAsciiRedirects(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const out = { ...body };
  for (const key of REDIRECT_KEYS) {
    const value = out[key];
    if (typeof value === "string") out[key] = asciiRedirect(value);
  }
  return out;
}

function emailOf(body: unknown): string | null {
  const email = isRecord(body) ? body.email : undefined;
  return typeof email === "string" && email.length > 0 && email.length <= 320 ? email : null;
}

export async function requireUser(request: FastifyRequest): Promise<CurrentUser> {
  const user = await request.currentUser();
  if (!user) throw unauthorized();
  return user;
}

export async function requireAdmin(request: FastifyRequest): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw forbidden("Admins only.");
  return user;
}

/** Assessors review practical submissions; admins may too. Per course: modules/staff `requireCourseStaff`. */
export async function requireAssessor(request: FastifyRequest): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "assessor" && user.role !== "admin") throw forbidden("Assessors only.");
  return user;
}

/** Instructors work on the courses they are assigned to; admins may too. Per course: modules/staff `requireCourseStaff`. */
export async function requireInstructor(request: FastifyRequest): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "instructor" && user.role !== "admin") throw forbidden("Instructors only.");
  return user;
}

/**
 * The actions that move money or credentials (decision 0054): the session must have confirmed a
 * second factor or passkey within the last 10 minutes, else 403 with `code: STEP_UP_REQUIRED`, which
 * the client turns into a prompt. A stolen session cookie alone never passes: the confirmation needs
 * the code or the passkey.
 */
export function requireStepUp(user: CurrentUser): void {
  const facts = sessionFacts.get(user);
  if (!facts?.stepUpApplies) return;
  if (!facts.hasSecondFactor)
    throw new AppError(403, "Set up two-factor sign-in or a passkey first (Profile → Security).", {
      code: SECOND_FACTOR_REQUIRED,
    });
  const at = facts.secondFactorAt === null ? 0 : Date.parse(facts.secondFactorAt);
  if (Date.now() - at > STEP_UP_MAX_AGE_MS)
    throw new AppError(403, "Confirm it is you: enter a code from your authenticator app or use a passkey.", {
      code: STEP_UP_REQUIRED,
    });
}

/** The request's session id (the session list marks it as current). */
export function sessionIdOf(user: CurrentUser): string | undefined {
  return sessionFacts.get(user)?.sessionId;
}
