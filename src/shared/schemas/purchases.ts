import { z } from "zod";

export const purchaseSchema = z.object({
  /** The order number on the receipt. */
  orderId: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  status: z.enum(["paid", "refunding", "refunded"]),
  /** What was charged, in cents (0 for a free claim). */
  amount: z.number().int(),
  originalAmount: z.number().int(),
  currency: z.string(),
  couponCode: z.string().nullable(),
  /** A card payment, or a course claimed free with a coupon. */
  kind: z.enum(["card", "free"]),
  paidAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
});
export type Purchase = z.infer<typeof purchaseSchema>;
export const purchaseListSchema = z.array(purchaseSchema);
export const purchaseParamsSchema = z.strictObject({ orderId: z.string().min(1).max(100) });
