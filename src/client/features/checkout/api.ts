import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type {
  ConfirmEnrollmentResponse,
  CouponSummary,
  PaymentIntentResponse,
  PaymentsConfig,
} from "#shared/schemas/checkout.ts";

export interface SandboxCardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export const paymentsConfigQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/payments/config"],
    queryFn: () => api.get<PaymentsConfig>("/api/payments/config"),
    staleTime: Infinity,
  });
export const usePaymentsConfig = () => useQuery(paymentsConfigQueryOptions());

export const validateCoupon = (couponCode: string, courseId: string) =>
  api.post<{ valid: true; coupon: CouponSummary }>("/api/validate-coupon", { couponCode, courseId });
export const createPaymentIntent = (courseId: string, couponCode?: string) =>
  api.post<PaymentIntentResponse>("/api/create-payment-intent", { courseId, ...(couponCode ? { couponCode } : {}) });
export const confirmEnrollment = (body: { paymentIntentId: string; courseId?: string; couponCode?: string }) =>
  api.post<ConfirmEnrollmentResponse>("/api/confirm-enrollment", body);
export const createCheckoutSession = (courseId: string) =>
  api.post<{ checkoutUrl: string; sessionId: string }>("/api/create-checkout-session", { courseId });
export const autoEnrollAll = () => api.post<{ enrolled: string[]; pending: string[] }>("/api/auto-enroll-all");

export const confirmSandboxPayment = (paymentIntentId: string, clientSecret: string, card: SandboxCardInput) =>
  api.post<{ status: string; error: string | null }>(
    `/api/sandbox/payment-intents/${encodeURIComponent(paymentIntentId)}/confirm`,
    { clientSecret, card },
  );
export const getSandboxSession = (sessionId: string) =>
  api.get<{
    id: string;
    status: string;
    amount: number;
    currency: string;
    courseTitle: string;
    successUrl: string;
    cancelUrl: string;
  }>(`/api/sandbox/checkout-sessions/${encodeURIComponent(sessionId)}`);
export const paySandboxSession = (sessionId: string, card: SandboxCardInput) =>
  api.post<{ redirectUrl: string | null; error: string | null }>(
    `/api/sandbox/checkout-sessions/${encodeURIComponent(sessionId)}/pay`,
    { card },
  );

export function describeCoupon(c: CouponSummary): string {
  return c.percentOff ? `${c.percentOff}% off` : `$${((c.amountOff ?? 0) / 100).toFixed(2)} off`;
}
