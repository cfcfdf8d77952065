import { z } from "zod";
import { certificateLifecycleSchema } from "./certificates.ts";
import { examRulesSchema } from "./learning.ts";

/** The signed token of a one-click unsubscribe link: base64url characters and one dot. */
export const unsubscribeTokenSchema = z
  .string()
  .min(10)
  .max(300)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, "This unsubscribe link is not valid.");
export const unsubscribeQuerySchema = z.strictObject({ token: unsubscribeTokenSchema.optional() });
/** JSON from the unsubscribe page, or (RFC 8058 one-click) a form body, read as {}. */
export const unsubscribeBodySchema = z.strictObject({ token: unsubscribeTokenSchema.optional() }).optional();
export const unsubscribeResponseSchema = z.object({ unsubscribed: z.literal(true), message: z.string() });

export const recertificationParamsSchema = z.strictObject({ courseId: z.string().min(1).max(100) });

/** The recertification exam's rules before Start (the final exam's, for this learner) and the certificate it renews. */
export const recertificationRulesSchema = examRulesSchema.extend({
  certificateId: z.string(),
  courseTitle: z.string(),
  expiresAt: z.string(),
});
export type RecertificationRules = z.infer<typeof recertificationRulesSchema>;

export const expiringWindowSchema = z.enum(["30", "60", "90", "expired"]);
export const expiringQuerySchema = z.strictObject({ window: expiringWindowSchema.default("90") });

export const expiringCertificateSchema = z.object({
  certificateId: z.string(),
  holderName: z.string(),
  email: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  expiresAt: z.string(),
  lifecycle: certificateLifecycleSchema,
  /** Reminder kinds sent for the current expiry date, e.g. ["90-days", "30-days"]. */
  remindersSent: z.array(z.string()),
  unsubscribed: z.boolean(),
});
export type ExpiringCertificate = z.infer<typeof expiringCertificateSchema>;
export const expiringCertificateListSchema = z.array(expiringCertificateSchema);

export const extendCertificateInputSchema = z.strictObject({
  until: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Choose the new expiry date.")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Choose the new expiry date."),
  reason: z.string().trim().min(3, "Say why the certificate is extended.").max(500),
});
export type ExtendCertificateInput = z.infer<typeof extendCertificateInputSchema>;
export const extendCertificateResponseSchema = z.object({ certificateId: z.string(), expiresAt: z.string() });
