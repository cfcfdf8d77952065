import { z } from "zod";

export const couponCodeSchema = z.string().trim().min(1, "Enter a coupon code").max(64);

export const validateCouponInputSchema = z.strictObject({
  couponCode: couponCodeSchema,
  courseId: z.string().min(1).max(100).optional(),
});

export const couponSummarySchema = z.object({
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().int().nullable(),
});
export type CouponSummary = z.infer<typeof couponSummarySchema>;
export const validateCouponResponseSchema = z.object({ valid: z.literal(true), coupon: couponSummarySchema });

export const createPaymentIntentInputSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  couponCode: couponCodeSchema.optional(),
});

export const paymentIntentResponseSchema = z.object({
  provider: z.enum(["sandbox", "stripe"]),
  paymentIntentId: z.string().nullable(),
  clientSecret: z.string().nullable(),
  publishableKey: z.string().nullable(),
  amount: z.number().int(),
  originalAmount: z.number().int(),
  currency: z.string(),
  isFree: z.boolean(),
  freeEnrollment: z.boolean(),
  coupon: couponSummarySchema.nullable(),
});
export type PaymentIntentResponse = z.infer<typeof paymentIntentResponseSchema>;

export const confirmEnrollmentInputSchema = z.strictObject({
  paymentIntentId: z.string().min(1).max(200),
  courseId: z.string().min(1).max(100).optional(),
  couponCode: couponCodeSchema.optional(),
});

export const confirmEnrollmentResponseSchema = z.object({
  success: z.boolean(),
  status: z.string(),
  courseId: z.string(),
  message: z.string(),
});
export type ConfirmEnrollmentResponse = z.infer<typeof confirmEnrollmentResponseSchema>;

export const createCheckoutSessionInputSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  couponCode: couponCodeSchema.optional(),
});
export const checkoutSessionResponseSchema = z.object({ checkoutUrl: z.string(), sessionId: z.string() });

export const autoEnrollResponseSchema = z.object({
  enrolled: z.array(z.string()),
  pending: z.array(z.string()),
});

export const paymentsConfigSchema = z.object({
  /** False when no payment provider is configured (production without Stripe): nothing can be bought. */
  enabled: z.boolean(),
  provider: z.enum(["sandbox", "stripe", "none"]),
  publishableKey: z.string().nullable(),
  /** Shown as a 'Test payments' banner when the sandbox runs in production. */
  testPaymentsBanner: z.boolean(),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const sandboxCardSchema = z.strictObject({
  number: z
    .string()
    .trim()
    .regex(/^[\d\s-]{12,23}$/, "Enter the card number"),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(0).max(9999),
  cvc: z.string().regex(/^\d{3,4}$/, "Enter the 3 or 4 digit security code"),
});
export const sandboxConfirmInputSchema = z.strictObject({
  clientSecret: z.string().min(1).max(200),
  card: sandboxCardSchema,
});
export const sandboxConfirmResponseSchema = z.object({ status: z.string(), error: z.string().nullable() });
export const sandboxSessionSchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  courseTitle: z.string(),
  successUrl: z.string(),
  cancelUrl: z.string(),
});
export const sandboxPayInputSchema = z.strictObject({ card: sandboxCardSchema });
export const sandboxPayResponseSchema = z.object({ redirectUrl: z.string().nullable(), error: z.string().nullable() });

/** The answer to a Stripe webhook: Stripe only needs the 2xx; the fields help when reading its delivery log. */
export const webhookReceiptSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().optional(),
  ignored: z.string().optional(),
});
