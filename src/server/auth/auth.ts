import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Kysely } from "kysely";
import { BRAND_NAME } from "#shared/constants.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#shared/format.ts";
import { signInInputSchema } from "#shared/schemas/auth.ts";
import { nameInputSchema } from "#shared/schemas/certificates.ts";
import { firstIssue } from "#shared/schemas/common.ts";
import { emailAddressSchema } from "#shared/schemas/email.ts";
import type { Background } from "../background.ts";
import type { Config } from "../config.ts";
import { ACCOUNT_ERASED_MESSAGE, isAccountErased } from "../db/account-lock.ts";
import { type Engine, isDatabaseBusy, isDatabaseUnavailable } from "../db/database.ts";
import type { DB } from "../db/schema.ts";
import { authRateLimitStorage } from "../limits/auth-rate-limit-storage.ts";
import type { HitCounter } from "../limits/hit-counter.ts";
import { enqueueEmailAfterAnswer } from "../mail/outbox.ts";
import { endAccessOpenedBeforeProof, markAddressVerified } from "./address-proof.ts";
import { recordAuthFailure } from "./auth-failures.ts";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./common-passwords.ts";
import { mailCapReached } from "./mail-cap.ts";
import { createSessionLookup } from "./session-cookie.ts";

/** Sign-up with an address that has an account: the spec's flow says so (decision 0023). */
export const ALREADY_REGISTERED_MESSAGE =
  "An account with this e-mail address already exists. Sign in instead, or use “Forgot your password?” on the Sign In tab to reset it.";

/** Header our server sets from the socket address (never from the client) for Better Auth's rate limiter. */
export const CLIENT_IP_HEADER = "x-academy-client-ip";

export interface AuthDeps {
  config: Config;
  db: Kysely<DB>;
  engine: Engine;
  background: Background;
  /** Shared counters: Redis when configured, else the database (decision 0031). */
  counters: HitCounter;
  /** The account's address was just proven (verification link or password reset): pending enrolments apply. */
  onAddressVerified?: (user: { id: string; email: string }) => Promise<void>;
  /** The app's logger: Better Auth's own lines go there as JSON, not as coloured text on stdout. */
  log?: AuthLog;
}

type AuthLogLevel = "debug" | "info" | "warn" | "error";
type AuthLog = Record<AuthLogLevel, (obj: object, msg: string) => void>;

/**
 * Better Auth's log lines through the app's logger. An error it logs and then answers with a 4xx of
 * its own (sign-up answers 422 when creating the user failed) is kept for the bridge when the cause was
 * the database, busy or away: that request then gets the same 503 as every other route.
 */
function authLogger(log: AuthLog) {
  return {
    level: "info" as const,
    log(level: AuthLogLevel, message: string, ...args: unknown[]) {
      const err = args.find((arg) => arg instanceof Error);
      if (err && (isDatabaseBusy(err) || isDatabaseUnavailable(err))) recordAuthFailure(err);
      const details = args.filter((arg) => arg !== err);
      log[level]({ ...(err ? { err } : {}), ...(details.length ? { details } : {}) }, `auth: ${message}`);
    },
  };
}

export function createAuth({ config, db, engine, background, counters, onAddressVerified, log }: AuthDeps) {
  const sessionHolder = createSessionLookup(db, config.authSecret, config.appUrl.startsWith("https://"));
  // Bound below, once Better Auth exists: a verification that removed a stranger's password mails a reset link.
  let mailResetLink: (email: string) => Promise<unknown> = async () => {};
  const auth = betterAuth({
    appName: BRAND_NAME,
    ...(log ? { logger: authLogger(log) } : {}),
    baseURL: config.appUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    // Without the column-shapes plugin (db/column-shapes.ts): Better Auth converts its own columns and
    // expects Date objects from PostgreSQL.
    database: { db: db.withoutPlugins(), type: engine },
    trustedOrigins: config.env === "development" ? [config.appUrl, "http://localhost:5173"] : [config.appUrl],
    user: {
      additionalFields: {
        firstName: { type: "string", required: true, input: true },
        lastName: { type: "string", required: true, input: true },
        role: { type: "string", required: false, defaultValue: "learner", input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // The spec's flow: a new account is signed in at once (decision 0023); a registered address is
      // refused by the before-hook below, and its owner told by e-mail.
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user, url }) {
        // One inbox is not flooded: at most 3 reset mails an hour per account, whoever asks.
        if (await mailCapReached(counters, `reset-mail:${user.id}`)) return;
        await enqueueEmailAfterAnswer(db, {
          to: user.email,
          userId: user.id,
          template: "reset-password",
          data: { url },
          link: url,
        });
      },
      // The reset link proves the address: the revoked sessions aside, the account counts as verified.
      async onPasswordReset({ user }) {
        await markAddressVerified(db, user.id);
        await onAddressVerified?.({ id: user.id, email: user.email });
      },
    },
    // Sent on sign-up. Unverified learners learn and buy as usual; an ADMIN_EMAILS address becomes
    // admin only once verified (plugins/auth.ts).
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        await enqueueEmailAfterAnswer(db, {
          to: user.email,
          userId: user.id,
          template: "verify-email",
          data: { url },
          link: url,
        });
      },
      // Runs once, when the link turns an unverified address verified, before Better Auth signs the
      // link's opener in with a new session.
      async afterEmailVerification(user, request) {
        const holder = await sessionHolder(request?.headers.get("cookie") ?? undefined);
        const fromPasswordHolder = holder?.id === user.id;
        await endAccessOpenedBeforeProof(db, user.id, fromPasswordHolder);
        if (!fromPasswordHolder) background.track(mailResetLink(user.email), "reset link after verification");
        await onAddressVerified?.({ id: user.id, email: user.email });
      },
    },
    // Names change through PUT /api/profile only, under the shared name rules.
    // Reset requests arrive through our own route (plugins/auth.ts), which answers before the work.
    disabledPaths: ["/update-user", "/request-password-reset"],
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    plugins: [
      // TOTP from an authenticator app, ten single-use backup codes (stored encrypted), a device
      // trusted for 30 days on request (decision 0054). Codes are also counted per account and refused
      // when reused by the bridge (plugins/auth.ts), whichever instance receives them.
      twoFactor({
        issuer: BRAND_NAME,
        backupCodeOptions: { amount: 10, length: 10 },
        trustDeviceMaxAge: 30 * 24 * 60 * 60,
      }),
      // WebAuthn passkeys, several per account, each named; bound to this site's host and origin.
      passkey({ rpID: new URL(config.appUrl).hostname, rpName: BRAND_NAME, origin: config.appUrl }),
    ],
    rateLimit: {
      enabled: true,
      // Per client address. With Redis, in the shared counters (the database while Redis is away);
      // without it, in Better Auth's own `rateLimit` table.
      ...(config.redis ? { customStorage: authRateLimitStorage(counters) } : { storage: "database" as const }),
      window: 60,
      max: 200,
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/sign-up/email": { window: 60, max: 10 },
        "/reset-password": { window: 60, max: 10 },
        // Codes per client address as passwords are (the plugin's own rule is 3 per 10 seconds).
        "/two-factor/*": { window: 60, max: 10 },
      },
    },
    advanced: {
      // Mail is queued after the response, so answers take the same time whether or not an address
      // has an account (reset requests, sign-ups); the outbox sends it (mail/outbox.ts).
      backgroundTasks: { handler: (work) => background.track(work, "auth mail") },
      useSecureCookies: config.appUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    onAPIError: {
      onError(error) {
        if (!isAPIError(error)) recordAuthFailure(error);
      },
    },
    databaseHooks: {
      // A sign-in racing the account's erasure opens no session (decision 0051): refused when the
      // erasure came first; removed when it commits while the session is written. The erasure itself
      // deletes every session that existed before it, and the session lookup ignores an erased account's.
      session: {
        create: {
          before: async (session) => {
            if (await isAccountErased(db, session.userId))
              throw new APIError("UNAUTHORIZED", { message: ACCOUNT_ERASED_MESSAGE });
          },
          after: async (session) => {
            if (!(await isAccountErased(db, session.userId))) return;
            await db.deleteFrom("session").where("id", "=", session.id).execute();
            throw new APIError("UNAUTHORIZED", { message: ACCOUNT_ERASED_MESSAGE });
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Better Auth validates the body after this hook: it may still be anything here.
        const body: Record<string, unknown> =
          typeof ctx.body === "object" && ctx.body !== null && !Array.isArray(ctx.body) ? ctx.body : {};
        if (ctx.path === "/sign-up/email" || ctx.path === "/reset-password") {
          const password = ctx.path === "/sign-up/email" ? body.password : body.newPassword;
          if (typeof password === "string" && isCommonPassword(password)) {
            throw new APIError("BAD_REQUEST", { message: COMMON_PASSWORD_MESSAGE, code: "PASSWORD_TOO_COMMON" });
          }
        }
        // The sign-in form's own schema: the browser checks the same before sending.
        if (ctx.path === "/sign-in/email") {
          const input = signInInputSchema.safeParse(body);
          if (!input.success) throw new APIError("BAD_REQUEST", { message: firstIssue(input.error).message });
        }
        // The same address rule as everywhere else an address is written (admin enrolment, bulk CSV).
        if (ctx.path === "/sign-up/email") {
          const email = emailAddressSchema.safeParse(body.email);
          if (!email.success) throw new APIError("BAD_REQUEST", { message: firstIssue(email.error).message });
        }
        // Any Better Auth endpoint that writes a name gets the same rules as the profile route.
        // (A passkey's `name` is the passkey's own, not a person's.)
        const personName =
          !ctx.path.startsWith("/passkey/") && ("firstName" in body || "lastName" in body || "name" in body);
        if (ctx.path === "/sign-up/email" || personName) {
          const names = nameInputSchema.safeParse({ firstName: body.firstName, lastName: body.lastName });
          if (!names.success) throw new APIError("BAD_REQUEST", { message: firstIssue(names.error).message });
          const { firstName, lastName } = names.data;
          if (ctx.path === "/sign-up/email") await refuseRegisteredAddress(ctx, body.email);
          return { context: { body: { ...body, firstName, lastName, name: `${firstName} ${lastName}` } } };
        }
      }),
    },
  });

  /** A registered address gets 'Sign Up Failed' (client) with a plain message; its owner is told by e-mail. */
  async function refuseRegisteredAddress(
    ctx: {
      context: {
        internalAdapter: { findUserByEmail(email: string): Promise<{ user: { id: string; email: string } } | null> };
      };
    },
    email: unknown,
  ) {
    if (typeof email !== "string") return;
    const existing = await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase());
    if (!existing) return;
    const { id: userId, email: owner } = existing.user;
    background.track(
      (async () => {
        if (await mailCapReached(counters, `existing-sign-up-mail:${owner}`)) return;
        const signInUrl = `${config.appUrl}/login`;
        await enqueueEmailAfterAnswer(db, {
          to: owner,
          userId,
          template: "existing-account-sign-up",
          data: { signInUrl },
          link: signInUrl,
        });
      })(),
      "existing-account mail",
    );
    throw new APIError("UNPROCESSABLE_ENTITY", { message: ALREADY_REGISTERED_MESSAGE, code: "USER_ALREADY_EXISTS" });
  }

  mailResetLink = (email) => auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
