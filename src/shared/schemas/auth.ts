import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../format.ts";
import { nameInputSchema } from "./certificates.ts";
import { emailAddressSchema } from "./email.ts";
import { nameOrderSchema } from "./text.ts";

export const roleSchema = z.enum(["learner", "assessor", "instructor", "admin"]);
export type Role = z.infer<typeof roleSchema>;
/** The roles that work on the courses they are assigned to (courseStaff; docs/decisions/0053). */
export const staffRoleSchema = z.enum(["instructor", "assessor"]);
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  nameOrder: nameOrderSchema,
  role: roleSchema,
  /**
   * A staff role the account holds but may use only once it has a passkey or two-factor sign-in
   * (docs/decisions/0054); until then `role` is learner. Absent otherwise.
   */
  roleOnHold: roleSchema.exclude(["learner"]).optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
/** GET /api/auth/user: the signed-in user, or null for a visitor. */
export const currentUserOrNullSchema = currentUserSchema.nullable();

/** An address typed into a form: surrounding spaces (a paste) are dropped before the address rule. */
const typedEmailSchema = z.string().trim().pipe(emailAddressSchema);

/** A new password (sign-up, reset): Better Auth is configured with the same limits. */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  .max(MAX_PASSWORD_LENGTH, `Password is at most ${MAX_PASSWORD_LENGTH} characters`);

/**
 * POST /api/auth/sign-up/email (Better Auth's, checked by its before-hook) and the sign-up form.
 * The names follow the profile's rules; Better Auth's `name` is derived from them.
 */
export const signUpInputSchema = nameInputSchema.extend({ email: typedEmailSchema, password: newPasswordSchema });
export type SignUpInput = z.infer<typeof signUpInputSchema>;

/** POST /api/auth/sign-in/email and the sign-in form. */
export const signInInputSchema = z.object({
  email: typedEmailSchema,
  password: z.string().min(1, "Please enter your password.").max(MAX_PASSWORD_LENGTH),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** POST /api/auth/reset-password: the mailed token and the new password. */
export const passwordResetInputSchema = z.object({ token: z.string().min(1), newPassword: newPasswordSchema });
export type PasswordResetInput = z.infer<typeof passwordResetInputSchema>;

/** POST /api/auth/request-password-reset. `redirectTo` is a path of this site (the reset page). */
export const passwordResetRequestSchema = z.object({
  email: emailAddressSchema,
  redirectTo: z
    .string()
    .max(200)
    .regex(/^\/(?![/\\])/, "must be a path on this site")
    .optional(),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** Its one answer, the same for every address, known or not. */
export const passwordResetRequestedSchema = z.object({ status: z.literal(true), message: z.string() });

export { STEP_UP_REQUIRED } from "../constants.ts";
/** The code (403) for a staff route used by staff whose second factor is not set up yet. */
export const SECOND_FACTOR_REQUIRED = "SECOND_FACTOR_REQUIRED";
/** How long a second-factor or passkey confirmation lets the actions that move money or credentials through. */
export const STEP_UP_MAX_AGE_MS = 10 * 60 * 1000;

/** A password sign-in to an account that signs in with passkeys only (403). */
export const PASSWORD_SIGN_IN_OFF = "PASSWORD_SIGN_IN_OFF";
export const PASSWORD_SIGN_IN_OFF_MESSAGE =
  "This account signs in with a passkey only. Use “Sign in with a passkey”; its owner can turn password sign-in back on from the profile.";
export const PASSKEY_TAKEN_MESSAGE = "This passkey is already registered. Add a new one from this device instead.";
export const PASSKEY_OTHER_ACCOUNT_MESSAGE =
  "This passkey belongs to another account. Use a passkey of the account you are signed in to.";
export const LAST_PASSKEY_MESSAGE =
  "This is your last passkey and password sign-in is off. Turn password sign-in on before removing it.";

/** GET and PUT /api/profile/password-sign-in: whether the password signs in (off only with a passkey). */
export const passwordSignInSchema = z.strictObject({ enabled: z.boolean() });
export type PasswordSignIn = z.infer<typeof passwordSignInSchema>;

/** GET /api/profile/sessions: the account's signed-in sessions, the current one marked (decision 0054). */
export const accountSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  /** The address the session was opened from, as the server saw it. */
  ipAddress: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.array(accountSessionSchema);
export const sessionParamsSchema = z.strictObject({ id: z.string().min(1).max(200) });
/** POST /api/profile/sessions/sign-out-others: how many sessions ended. */
export const sessionsEndedSchema = z.object({ ended: z.number().int() });
