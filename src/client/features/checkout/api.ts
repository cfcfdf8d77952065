import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type {
  autoEnrollResponseSchema,
  CouponSummary,
  checkoutSessionResponseSchema,
  confirmEnrollmentInputSchema,
  confirmEnrollmentResponseSchema,
  PaymentIntentResponse,
  sandboxCardSchema,
  sandboxConfirmResponseSchema,
  sandboxPayResponseSchema,
  sandboxSessionSchema,
  validateCouponResponseSchema,
} from "#shared/schemas/checkout.ts";
import type { enrollmentStatusSchema } from "#shared/schemas/courses.ts";

export type SandboxCardInput = z.input<typeof sandboxCardSchema>;
const enc = encodeURIComponent;

export const useSandboxSession = (sessionId: string) =>
  useQuery({
    queryKey: queryKeys.payments.sandboxSession(sessionId),
    queryFn: () => api.get<z.infer<typeof sandboxSessionSchema>>(`/api/sandbox/checkout-sessions/${enc(sessionId)}`),
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
    queryFn: () => api.get<z.infer<typeof enrollmentStatusSchema>>(`/api/enrollments/${enc(courseId)}`),
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
  api.post<z.infer<typeof validateCouponResponseSchema>>("/api/validate-coupon", { couponCode, courseId });
export const createPaymentIntent = (courseId: string, couponCode?: string) =>
  api.post<PaymentIntentResponse>("/api/create-payment-intent", { courseId, ...(couponCode ? { couponCode } : {}) });
export const createCheckoutSession = (courseId: string) =>
  api.post<z.infer<typeof checkoutSessionResponseSchema>>("/api/create-checkout-session", { courseId });
export const confirmSandboxPayment = (paymentIntentId: string, clientSecret: string, card: SandboxCardInput) =>
  api.post<z.infer<typeof sandboxConfirmResponseSchema>>(
    `/api/sandbox/payment-intents/${enc(paymentIntentId)}/confirm`,
    {
      clientSecret,
      card,
    },
  );
export const paySandboxSession = (sessionId: string, card: SandboxCardInput) =>
  api.post<z.infer<typeof sandboxPayResponseSchema>>(`/api/sandbox/checkout-sessions/${enc(sessionId)}/pay`, {
    card,
  });

/** Confirms a paid (or free) enrolment; the learner's enrolments, courses and My Learning are read again. */
export function useConfirmEnrollment() {
  const changed = useEnrolmentChanged();
  return useMutation({
    mutationFn: (body: z.input<typeof confirmEnrollmentInputSchema>) =>
      api.post<z.infer<typeof confirmEnrollmentResponseSchema>>("/api/confirm-enrollment", body),
    onSuccess: changed,
  });
}

/** Asks the server to check this learner's hosted checkouts with the provider; it enrols only paid ones. */
export function useSettleCheckouts() {
  const changed = useEnrolmentChanged();
  return useMutation({
    mutationFn: () => api.post<z.infer<typeof autoEnrollResponseSchema>>("/api/auto-enroll-all"),
    onSuccess: changed,
  });
}

export function describeCoupon(c: CouponSummary): string {
  return c.percentOff ? `${c.percentOff}% off` : `$${((c.amountOff ?? 0) / 100).toFixed(2)} off`;
}
