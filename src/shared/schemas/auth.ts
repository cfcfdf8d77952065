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
