import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError } from "#client/lib/api-client.ts";
import type { PaymentIntentResponse } from "#shared/schemas/checkout.ts";
import { createPaymentIntent } from "./api.ts";

/**
 * The checkout's payment for a course, created once the page can sell it (`ready`) and again for each
 * coupon. A learner already enrolled is sent to the course; any other failure is shown and waits for
 * `retry`.
 */
export function usePaymentIntent(courseId: string, ready: boolean) {
  const toast = useToast();
  const navigate = useNavigate();
  const [intent, setIntent] = useState<PaymentIntentResponse | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    async (couponCode?: string) => {
      try {
        const next = await createPaymentIntent(courseId, couponCode);
        setIntent(next);
        setFailed(false);
        return next;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          toast({
            title: "Already Enrolled",
            description: error.serverMessage ?? "You are already enrolled in this course",
            variant: "destructive",
          });
          navigate(paths.course(courseId), { replace: true });
          return null;
        }
        setFailed(true);
        toast({
          title: "Error",
          description: "Failed to create payment intent. Please try again.",
          variant: "destructive",
        });
        return null;
      }
    },
    [courseId, navigate, toast],
  );

  useEffect(() => {
    if (ready && !intent && !failed) void load();
  }, [ready, intent, failed, load]);

  return {
    intent,
    failed,
    /** A payment for this coupon (or none): replaces the current one once created. */
    load,
    /** Drops the current payment: a new one at the full price is created. */
    drop: () => setIntent(null),
    retry: () => {
      setFailed(false);
      void load(intent?.coupon?.code);
    },
  };
}
