import { z } from "zod";
import { firstNameSchema, lastNameSchema, nameOrderSchema } from "./text.ts";

export const certificateStatusSchema = z.enum(["valid", "expired", "revoked"]);
export type CertificateStatus = z.infer<typeof certificateStatusSchema>;

/** Where a certificate stands for its holder: expiring = inside the renewal window before expiry. */
export const certificateLifecycleSchema = z.enum(["valid", "expiring", "expired", "revoked"]);
export type CertificateLifecycle = z.infer<typeof certificateLifecycleSchema>;

export const certificateSchema = z.object({
  id: z.string(),
  certificateId: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  nameOrder: nameOrderSchema,
  /** The name as printed: first and last name in the order the learner chose when it was issued. */
  holderName: z.string(),
  completedAt: z.string(),
  expiresAt: z.string(),
  issuedAt: z.string(),
  status: certificateStatusSchema,
  verifyUrl: z.string(),
  /** Whether the learner's profile name (or its order) now differs from the name on the certificate. */
  nameDiffersFromProfile: z.boolean(),
  /** Approved continuing-education hours; null unless the course names the approving body and number. */
  ceHours: z.number().nullable(),
  /** What the certificate says about hours: the CE approval, or the estimated study time (decision 0052). */
  creditStatement: z.string().nullable(),
  /** The practical assessed by a calibrated assessor against the published rubric (never a name); null otherwise. */
  assessmentStatement: z.string().nullable(),
  lifecycle: certificateLifecycleSchema,
  /** Whether a recertification exam may renew it now (90 days before expiry to 1 year after). */
  canRenew: z.boolean(),
  renewalOpensAt: z.string(),
  renewalClosesAt: z.string(),
  /** The course version it was earned on (docs/decisions/0055). */
  courseVersion: z.number().int(),
});
export type Certificate = z.infer<typeof certificateSchema>;
export const certificateListSchema = z.array(certificateSchema);

export const issueCertificateInputSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  /** Sent by the spec's client; ignored: the name comes from the learner's profile. */
  studentName: z.string().max(600).optional(),
  /** Ignored: the server's completion time is used. */
  completedAt: z.string().max(40).optional(),
});

export const certificateIdParamsSchema = z.strictObject({ certificateId: z.string().min(1).max(64) });

/** What anyone may see on the public verification page: no e-mail, no user id. */
export const verificationSchema = z.object({
  certificateId: z.string(),
  holderName: z.string(),
  courseTitle: z.string(),
  completedAt: z.string(),
  expiresAt: z.string(),
  status: certificateStatusSchema,
  /** Why a revoked certificate was revoked (e.g. "refunded"); null otherwise. */
  revokedReason: z.string().nullable(),
  issuer: z.string(),
  ceHours: z.number().nullable(),
  creditStatement: z.string().nullable(),
  assessmentStatement: z.string().nullable(),
  /** The course version the certificate was earned on, and when that version was published (docs/decisions/0055). */
  courseVersion: z.object({
    version: z.number().int(),
    publishedAt: z.string().nullable(),
    /** That version's learning outcomes and study hours, as the certificate states them. */
    learningOutcomes: z.array(z.string()),
    studyHours: z.number().nullable(),
  }),
  /** Renewals by recertification exam and extensions by an admin, oldest first. */
  history: z.array(
    z.object({
      kind: z.enum(["recertification", "extension"]),
      at: z.string(),
      previousExpiresAt: z.string(),
      newExpiresAt: z.string(),
    }),
  ),
});
export type Verification = z.infer<typeof verificationSchema>;

/** The one set of name rules: the profile route, sign-up and any other write of a name use it. */
export const nameInputSchema = z.strictObject({ firstName: firstNameSchema, lastName: lastNameSchema });
/** The profile: the name, and (when sent) the order it is printed in; absent keeps the current order. */
export const profileInputSchema = nameInputSchema.extend({ nameOrder: nameOrderSchema.optional() });
