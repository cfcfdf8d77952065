import { useEffect, useRef, useState } from "react";
import { ApiError } from "#client/lib/api-client.ts";
import type { CouponSummary } from "#shared/schemas/checkout.ts";
import { validateCoupon } from "./api.ts";

/** How long typing in the coupon field must pause before the code is checked. */
const COUPON_CHECK_PAUSE_MS = 300;

export type CouponState =
  | { status: "idle" }
  | { status: "checking" }
  | { status: "valid"; coupon: CouponSummary }
  | { status: "invalid"; message: string };

/**
 * The coupon field. A code is checked once typing pauses (COUPON_CHECK_PAUSE_MS), not on every
 * keystroke, so editing a code never meets the per-address limit; an answer to an older value is
 * dropped. An empty field clears the coupon at once (`cleared`); `valid` runs as soon as a code is
 * confirmed, `invalid` when it is refused.
 */
export function useCouponCheck(
  courseId: string,
  on: { valid(coupon: CouponSummary): unknown; invalid(): void; cleared(): void },
) {
  const [code, setCode] = useState("");
  const [coupon, setCoupon] = useState<CouponState>({ status: "idle" });
  const latestCheck = useRef(0);
  const pendingCheck = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pendingCheck.current), []);

  const check = async (value: string, id: number) => {
    try {
      const result = await validateCoupon(value, courseId);
      if (id !== latestCheck.current) return;
      setCoupon({ status: "valid", coupon: result.coupon });
      await on.valid(result.coupon);
    } catch (error) {
      if (id !== latestCheck.current) return;
      setCoupon({
        status: "invalid",
        message: (error instanceof ApiError && error.serverMessage) || "Invalid coupon code",
      });
      on.invalid();
    }
  };

  const change = (value: string) => {
    setCode(value);
    clearTimeout(pendingCheck.current);
    const id = ++latestCheck.current;
    if (!value.trim()) {
      setCoupon({ status: "idle" });
      on.cleared();
      return;
    }
    setCoupon({ status: "checking" });
    pendingCheck.current = setTimeout(() => void check(value.trim(), id), COUPON_CHECK_PAUSE_MS);
  };

  return { code, coupon, change };
}
