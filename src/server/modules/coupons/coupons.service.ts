import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CouponSummary } from "#shared/schemas/checkout.ts";
import type { CouponTable, DB } from "../../db/schema.ts";
import { AppError, badRequest } from "../../errors.ts";

export const COUPON_MESSAGES = {
  invalid: "Invalid coupon code",
  expired: "This coupon has expired",
  exhausted: "This coupon has reached its redemption limit",
  wrongCourse: "This coupon does not apply to this course",
} as const;

export const normaliseCode = (code: string) => code.trim().toUpperCase();

export function toCouponSummary(c: CouponTable): CouponSummary {
  return { code: c.code, percentOff: c.percentOff, amountOff: c.amountOff };
}

/**
 * The coupon rules, stated once: why the coupon does not apply to the course now, or null when it
 * does. Checkout applies them when a code is entered and fulfilment again when the money arrives
 * (decision 0011); the redemption limit is enforced for good by `redeemCoupon`'s conditional update.
 */
export function couponRefusal(coupon: CouponTable | undefined, courseId?: string): keyof typeof COUPON_MESSAGES | null {
  if (!coupon?.active) return "invalid";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= Date.now()) return "expired";
  if (coupon.maxRedemptions !== null && coupon.redemptionCount >= coupon.maxRedemptions) return "exhausted";
  if (courseId && coupon.courseId && coupon.courseId !== courseId) return "wrongCourse";
  return null;
}

/** Looks a coupon up by code (case-insensitively) or id and checks every rule; throws a 400 with the rule's message. */
export async function findValidCoupon(
  db: Kysely<DB> | Transaction<DB>,
  code: string | { id: string },
  courseId?: string,
): Promise<CouponTable> {
  const coupon = await db
    .selectFrom("coupon")
    .selectAll()
    .$call((q) => (typeof code === "string" ? q.where("code", "=", normaliseCode(code)) : q.where("id", "=", code.id)))
    .executeTakeFirst();
  const refusal = couponRefusal(coupon, courseId);
  if (refusal || !coupon) throw badRequest(COUPON_MESSAGES[refusal ?? "invalid"]);
  return coupon;
}

/** The price after one coupon (no stacking), never below zero. */
export function applyCoupon(price: number, coupon: Pick<CouponTable, "percentOff" | "amountOff"> | null): number {
  if (!coupon) return price;
  if (coupon.percentOff) return Math.max(0, Math.round(price * (1 - coupon.percentOff / 100)));
  if (coupon.amountOff) return Math.max(0, price - coupon.amountOff);
  return price;
}

/**
 * Takes one redemption slot inside the caller's transaction. The single conditional UPDATE is what
 * makes parallel claims of the last slot give exactly the maximum.
 */
export async function redeemCoupon(
  trx: Transaction<DB>,
  options: { couponId: string; orderId: string; userId: string },
) {
  const result = await trx
    .updateTable("coupon")
    .set((eb) => ({ redemptionCount: eb("redemptionCount", "+", 1) }))
    .where("id", "=", options.couponId)
    .where((eb) => eb.or([eb("maxRedemptions", "is", null), eb("redemptionCount", "<", eb.ref("maxRedemptions"))]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError(409, COUPON_MESSAGES.exhausted);
  await trx
    .insertInto("couponRedemption")
    .values({
      id: randomUUID(),
      couponId: options.couponId,
      orderId: options.orderId,
      userId: options.userId,
      createdAt: new Date().toISOString(),
    })
    .execute();
}

export interface NewCoupon {
  code: string;
  percentOff?: number;
  amountOff?: number;
  courseId?: string;
  expiresAt?: string;
  maxRedemptions?: number;
}

export async function createCoupon(db: Kysely<DB>, input: NewCoupon): Promise<CouponTable> {
  if (!!input.percentOff === !!input.amountOff)
    throw badRequest("Give either percentOff (1-100) or amountOff (cents), not both.");
  if (input.percentOff !== undefined && (input.percentOff < 1 || input.percentOff > 100))
    throw badRequest("percentOff must be between 1 and 100.");
  const code = normaliseCode(input.code);
  if (!/^[A-Z0-9_-]{3,64}$/.test(code)) throw badRequest("Codes are 3-64 letters, digits, '-' or '_'.");
  const exists = await db.selectFrom("coupon").select("id").where("code", "=", code).executeTakeFirst();
  if (exists) throw new AppError(409, `A coupon with the code ${code} already exists.`);
  const row: CouponTable = {
    id: randomUUID(),
    code,
    percentOff: input.percentOff ?? null,
    amountOff: input.amountOff ?? null,
    courseId: input.courseId ?? null,
    expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    maxRedemptions: input.maxRedemptions ?? null,
    redemptionCount: 0,
    active: true,
    createdAt: new Date().toISOString(),
  };
  await db.insertInto("coupon").values(row).execute();
  return row;
}

/** Stops a coupon applying to new checkouts. */
export async function deactivateCouponRow(db: Kysely<DB> | Transaction<DB>, id: string): Promise<void> {
  await db.updateTable("coupon").set({ active: false }).where("id", "=", id).execute();
}
