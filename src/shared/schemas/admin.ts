import { z } from "zod";
import { certificateStatusSchema } from "./certificates.ts";

export const adminEnrollInputSchema = z.strictObject({
  userEmail: z.string().trim().min(1, "Please enter both email and select a course.").max(320),
  courseId: z.string().trim().min(1, "Please enter both email and select a course.").max(100),
});
export const adminEnrollResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  outcome: z.enum(["enrolled", "pending", "already-enrolled", "already-pending"]),
});

export const bulkEnrollInputSchema = z.strictObject({
  csv: z.string().min(1, "Paste or upload at least one row.").max(500_000),
});
export const bulkRowResultSchema = z.object({
  line: z.number().int(),
  email: z.string(),
  courseId: z.string(),
  result: z.enum([
    "enrolled",
    "pending",
    "already-enrolled",
    "already-pending",
    "unknown-course",
    "coming-soon",
    "invalid-email",
  ]),
  message: z.string(),
});
export const bulkEnrollResponseSchema = z.object({
  rows: z.array(bulkRowResultSchema),
  counts: z.record(z.string(), z.number().int()),
});
export type BulkRowResult = z.infer<typeof bulkRowResultSchema>;

export const pageQuerySchema = z.strictObject({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const adminCouponSchema = z.object({
  id: z.string(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().int().nullable(),
  courseId: z.string().nullable(),
  expiresAt: z.string().nullable(),
  maxRedemptions: z.number().int().nullable(),
  redemptionCount: z.number().int(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type AdminCoupon = z.infer<typeof adminCouponSchema>;
export const createCouponInputSchema = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,64}$/, "Codes are 3-64 letters, digits, '-' or '_'."),
    percentOff: z.number().int().min(1).max(100).optional(),
    amountOff: z.number().int().min(1).max(1_000_000).optional(),
    courseId: z.string().min(1).max(100).optional(),
    expiresAt: z.iso.datetime().optional(),
    maxRedemptions: z.number().int().min(1).max(1_000_000).optional(),
  })
  .refine((v) => (v.percentOff === undefined) !== (v.amountOff === undefined), {
    message: "Give either percentOff or amountOff.",
  });
export const idParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

export const adminOrderSchema = z.object({
  id: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  amount: z.number().int(),
  originalAmount: z.number().int(),
  couponCode: z.string().nullable(),
  provider: z.string(),
  providerPaymentId: z.string(),
  status: z.string(),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
  refundable: z.boolean(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const pagedOrdersSchema = z.object({
  items: z.array(adminOrderSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const learnerAttemptsSchema = z.object({
  courseId: z.string(),
  /** A module id, or "exam" for the final exam. */
  assessment: z.string(),
  title: z.string(),
  attempts: z.number().int(),
  bestScore: z.number().int().nullable(),
  passed: z.boolean(),
  attemptsLeft: z.number().int(),
  nextAttemptAt: z.string().nullable(),
});
export type LearnerAttempts = z.infer<typeof learnerAttemptsSchema>;

export const grantAttemptInputSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  /** A module id, or "exam". */
  assessment: z.string().min(1).max(100),
});
const MULTIPLIER_RANGE = "Give a multiplier from 1 to 4, e.g. 1.5.";
export const accommodationInputSchema = z.strictObject({
  /** 1 removes the accommodation; 1.5 gives half as much time again on every timed exam. */
  timeMultiplier: z.number({ error: MULTIPLIER_RANGE }).min(1, MULTIPLIER_RANGE).max(4, MULTIPLIER_RANGE),
});
export const accommodationSchema = z.object({ userId: z.string(), timeMultiplier: z.number() });

export const adminLearnerSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  createdAt: z.string(),
  /** Time multiplier for timed exams (an accommodation); 1 when none is set. */
  timeMultiplier: z.number(),
  /** Attempts per module quiz and final exam of the enrolled courses. */
  attempts: z.array(learnerAttemptsSchema),
  courses: z.array(
    z.object({
      courseId: z.string(),
      percent: z.number().int(),
      certificateId: z.string().nullable(),
      certificateStatus: certificateStatusSchema.nullable(),
    }),
  ),
});
export type AdminLearner = z.infer<typeof adminLearnerSchema>;
export const pagedLearnersSchema = z.object({
  items: z.array(adminLearnerSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const revokeCertificateInputSchema = z.strictObject({
  reason: z.string().trim().min(3, "Give a reason.").max(500),
});
export const certificateParamsSchema = z.strictObject({ certificateId: z.string().min(1).max(64) });
export const revokedCertificateSchema = z.object({ certificateId: z.string(), status: z.literal("revoked") });
export const refundedOrderSchema = z.object({ id: z.string(), status: z.literal("refunded"), refundId: z.string() });

export const auditEntrySchema = z.object({
  id: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export const pagedAuditSchema = z.object({
  items: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/** POST /api/admin/learners/:id/second-factors/reset: the account's two-factor and passkeys removed (decision 0054). */
export const secondFactorsResetSchema = z.object({ userId: z.string(), reset: z.literal(true) });
