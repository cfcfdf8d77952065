import { z } from "zod";
import { firstNameSchema, lastNameSchema, nameOrderSchema } from "./text.ts";

export const roleSchema = z.enum(["learner", "assessor", "admin"]);
export type Role = z.infer<typeof roleSchema>;

export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  nameOrder: nameOrderSchema,
  role: roleSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
/** GET /api/auth/user: the signed-in user, or null for a visitor. */
export const currentUserOrNullSchema = currentUserSchema.nullable();

export const signUpInputSchema = z.object({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  email: z.email("Please enter a valid email address"),
  password: z.string().min(6, "Password must be at least 6 characters long").max(128),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

/** POST /api/auth/request-password-reset. `redirectTo` is a path of this site (the reset page). */
export const passwordResetRequestSchema = z.object({
  email: z.email("Please enter a valid email address").max(320),
  redirectTo: z
    .string()
    .max(200)
    .regex(/^\/(?![/\\])/, "must be a path on this site")
    .optional(),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** Its one answer, the same for every address, known or not. */
export const passwordResetRequestedSchema = z.object({ status: z.literal(true), message: z.string() });
