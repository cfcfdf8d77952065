import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { CouponSummary, confirmEnrollmentInputSchema, sandboxCardSchema } from "#shared/schemas/checkout.ts";

export type SandboxCardInput = z.input<typeof sandboxCardSchema>;

export const useSandboxSession = (sessionId: string) =>
  useQuery({
    queryKey: queryKeys.payments.sandboxSession(sessionId),
    queryFn: () => dataOf(api.GET("/api/sandbox/checkout-sessions/{sessionId}", { params: { path: { sessionId } } })),
    refetchOnWindowFocus: false,
  });

const POLL_MS = 1500;
const POLL_LIMIT = 20;
/**
 * Whether the caller is enrolled in a course. With `poll`, asks again every 1.5 s (at most 20 times)
 * until the enrolment appears: a 'processing' payment settles and enrols on the server. The polling
 * stops when the component using it unmounts.
 */
export function useCourseEnrollment(courseId: string, { enabled = true, poll = false } = {}) {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.enrollments.course(courseId);
  const attempts = (state?: { dataUpdateCount: number; errorUpdateCount: number }) =>
    state ? state.dataUpdateCount + state.errorUpdateCount : 0;
  const query = useQuery({
    queryKey,
    queryFn: () => dataOf(api.GET("/api/enrollments/{courseId}", { params: { path: { courseId } } })),
    enabled,
    refetchOnWindowFocus: false,
    refetchInterval: (q) => (poll && !q.state.data?.enrolled && attempts(q.state) < POLL_LIMIT ? POLL_MS : false),
  });
  const enrolled = !!query.data?.enrolled;
  const gaveUp = poll && !enrolled && attempts(queryClient.getQueryState(queryKey)) >= POLL_LIMIT;
  return { ...query, enrolled, gaveUp };
}

/** After an enrolment, every read that shows enrolments or progress is stale. */
function useEnrolmentChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.enrollments.all() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.courses.all() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
    ]);
}

export const validateCoupon = (couponCode: string, courseId: string) =>
  dataOf(api.POST("/api/validate-coupon", { body: { couponCode, courseId } }));
export const createPaymentIntent = (courseId: string, couponCode?: string) =>
  dataOf(api.POST("/api/create-payment-intent", { body: { courseId, ...(couponCode ? { couponCode } : {}) } }));
export const createCheckoutSession = (courseId: string) =>
  dataOf(api.POST("/api/create-checkout-session", { body: { courseId } }));
export const confirmSandboxPayment = (paymentIntentId: string, clientSecret: string, card: SandboxCardInput) =>
  dataOf(
    api.POST("/api/sandbox/payment-intents/{paymentIntentId}/confirm", {
      params: { path: { paymentIntentId } },
      body: { clientSecret, card },
    }),
  );
export const paySandboxSession = (sessionId: string, card: SandboxCardInput) =>
  dataOf(
    api.POST("/api/sandbox/checkout-sessions/{sessionId}/pay", { params: { path: { sessionId } }, body: { card } }),
  );

/** Confirms a paid (or free) enrolment; the learner's enrolments, courses and My Learning are read again. */
export function useConfirmEnrollment() {
  const changed = useEnrolmentChanged();
  return useMutation({
    mutationFn: (body: z.input<typeof confirmEnrollmentInputSchema>) =>
      dataOf(api.POST("/api/confirm-enrollment", { body })),
    onSuccess: changed,
  });
}

/** Asks the server to check this learner's hosted checkouts with the provider; it enrols only paid ones. */
export function useSettleCheckouts() {
  const changed = useEnrolmentChanged();
  return useMutation({
    mutationFn: () => dataOf(api.POST("/api/auto-enroll-all")),
    onSuccess: changed,
  });
}

export function describeCoupon(c: CouponSummary): string {
  return c.percentOff ? `${c.percentOff}% off` : `$${((c.amountOff ?? 0) / 100).toFixed(2)} off`;
}
