import { ArrowLeft, Gift } from "lucide-react";
import { lazy, Suspense, useEffect, useId, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField } from "#client/components/ui/form.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError } from "#client/lib/api-client.ts";
import { useCourse } from "#client/lib/courses.ts";
import { usePaymentsConfig } from "#client/lib/payments.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, FREE_COUPON_PAYMENT } from "#shared/constants.ts";
import { formatPrice } from "#shared/format.ts";
import type { CouponSummary } from "#shared/schemas/checkout.ts";
import {
  confirmSandboxPayment,
  describeCoupon,
  type SandboxCardInput,
  useConfirmEnrollment,
  useCourseEnrollment,
} from "./api.ts";
import { SandboxCardForm, TestPaymentsBanner } from "./card-form.tsx";
import { ComingSoonNotice, PurchasingUnavailable } from "./checkout-shell.tsx";
import { useCouponCheck } from "./use-coupon-check.ts";
import { usePaymentIntent } from "./use-payment-intent.ts";

const StripePayment = lazy(() => import("./stripe-payment.tsx"));
const serverMessage = (error: unknown) => (error instanceof ApiError ? error.serverMessage : undefined);
const REDIRECT_AFTER_PAYMENT_MS = 1000;
export default function CheckoutPage() {
  const { courseId = "" } = useParams();
  const course = useCourse(courseId);
  const payments = usePaymentsConfig();
  const toast = useToast();
  const navigate = useNavigate();
  const confirm = useConfirmEnrollment();
  // A 'processing' payment: the server enrols the learner once it settles; this page asks until then.
  const [processingIntentId, setProcessingIntentId] = useState<string | null>(null);
  const settled = useCourseEnrollment(courseId, { enabled: !!processingIntentId, poll: true });
  const [busy, setBusy] = useState(false);
  const couponErrorId = useId();
  useDocumentMeta({
    title: `Checkout${course.data ? `: ${course.data.title}` : ""} | ${BRAND_NAME}`,
    description: `Buy ${course.data?.title ?? "a course"} at ${BRAND_NAME}: order summary, coupon and card payment.`,
  });

  useEffect(() => {
    if (course.isError) {
      toast({ title: "Error", description: "Failed to load checkout page. Please try again.", variant: "destructive" });
      navigate(paths.home, { replace: true });
    }
  }, [course.isError, navigate, toast]);

  const purchasing = !!(payments.data?.enabled && course.data && !course.data.comingSoon);
  const payment = usePaymentIntent(courseId, purchasing);
  const { intent } = payment;

  /** Spec's success toasts: 'Payment Successful!' after a card payment, 'Enrollment Successful!' after a free claim;
   * one toast at a time, so the card's carries the enrolment's welcome. */
  const succeed = async (message: string, paid: boolean) => {
    toast({ title: paid ? "Payment Successful!" : "Enrollment Successful!", description: message });
    setTimeout(() => navigate(paths.course(courseId)), REDIRECT_AFTER_PAYMENT_MS);
  };

  const {
    code,
    coupon,
    change: onCouponChange,
  } = useCouponCheck(courseId, {
    valid: (c) => applyCoupon(c),
    // An invalid code takes the earlier discount away at once: summary, Pay button and payment
    // (the page then loads a payment at the full price).
    invalid: () => intent?.coupon && payment.drop(),
    cleared: () => intent?.coupon && void payment.load(),
  });

  const applyCoupon = async (c: CouponSummary) => {
    if (intent?.coupon?.code === c.code) return;
    const next = await payment.load(c.code);
    if (next) toast({ title: "Coupon Applied!", description: `Your discount has been applied: ${describeCoupon(c)}` });
  };

  /** Acts on a card payment's outcome; gives the reason when the card was declined. */
  const handleStatus = async (
    paymentIntentId: string,
    result: { status: string; error: string | null },
  ): Promise<string | undefined> => {
    if (result.status === "succeeded") {
      try {
        const confirmed = await confirm.mutateAsync({ paymentIntentId });
        await succeed(confirmed.message, true);
      } catch {
        toast({
          title: "Payment Successful",
          description: "There was an issue confirming your enrollment. Please contact support.",
          variant: "destructive",
        });
      }
      return;
    }
    if (result.status === "requires_payment_method") {
      const description = result.error ?? "The payment method was declined. Please try a different payment method.";
      toast({ title: "Payment Failed", description, variant: "destructive" });
      return description;
    }
    if (result.status === "processing") {
      toast({ title: "Payment Processing", description: "Your payment is being processed. Please wait..." });
      setProcessingIntentId(paymentIntentId);
      return;
    }
    toast({
      title: "Payment Issue",
      description: `Payment status: ${result.status}. Please try again or contact support.`,
      variant: "destructive",
    });
  };

  // The processing payment settled (enrolled) or the polling gave up.
  const { enrolled: settledEnrolled, gaveUp: settleGaveUp } = settled;
  // biome-ignore lint/correctness/useExhaustiveDependencies: handleStatus is new each render; this runs once per outcome
  useEffect(() => {
    if (!processingIntentId || (!settledEnrolled && !settleGaveUp)) return;
    setProcessingIntentId(null);
    if (settledEnrolled) void handleStatus(processingIntentId, { status: "succeeded", error: null });
    else
      toast({
        title: "Payment Issue",
        description: "Payment status: processing. Please try again or contact support.",
        variant: "destructive",
      });
  }, [processingIntentId, settledEnrolled, settleGaveUp, toast]);

  const paySandbox = async (card: SandboxCardInput): Promise<string | undefined> => {
    if (!intent?.paymentIntentId || !intent.clientSecret) return;
    setBusy(true);
    try {
      const result = await confirmSandboxPayment(intent.paymentIntentId, intent.clientSecret, card);
      return await handleStatus(intent.paymentIntentId, result);
    } catch (error) {
      const description = serverMessage(error) ?? "Please try again.";
      toast({ title: "Payment Failed", description, variant: "destructive" });
      return description;
    } finally {
      setBusy(false);
    }
  };

  const claimFree = async () => {
    setBusy(true);
    try {
      const confirmed = await confirm.mutateAsync({
        paymentIntentId: FREE_COUPON_PAYMENT,
        courseId,
        couponCode: intent?.coupon?.code,
      });
      await succeed(confirmed.message, false);
    } catch {
      toast({
        title: "Error",
        description: "There was an issue confirming your enrollment. Please try again.",
        variant: "destructive",
      });
      setBusy(false);
    }
  };

  if (course.isPending || !course.data) {
    return (
      <PageContainer className="max-w-5xl" aria-busy="true">
        <Skeleton className="h-8 w-40" />
        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Skeleton className="h-72" />
          <Skeleton className="h-72" />
        </div>
      </PageContainer>
    );
  }
  const c = course.data;
  // Nothing to pay for yet: no coupon field, no total, only what is coming and the way back.
  if (c.comingSoon)
    return (
      <PageContainer className="max-w-xl">
        <Link to={paths.home} className="inline-flex items-center gap-1 text-sm text-muted hover:underline">
          <ArrowLeft size={16} aria-hidden="true" />
          Back to Courses
        </Link>
        <h1 className="mt-3 font-serif text-3xl font-bold">Checkout</h1>
        <Card className="mt-6 p-6">
          <ComingSoonNotice course={c} />
        </Card>
      </PageContainer>
    );
  const total = intent?.amount ?? c.price;
  const discount = (intent?.originalAmount ?? c.price) - total;

  return (
    <PageContainer className="max-w-5xl">
      <Link to={paths.home} className="inline-flex items-center gap-1 text-sm text-muted hover:underline">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to Courses
      </Link>
      <h1 className="mt-3 font-serif text-3xl font-bold">Checkout</h1>
      {payments.data?.testPaymentsBanner && (
        <div className="mt-4">
          <TestPaymentsBanner />
        </div>
      )}
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="h-fit p-4 sm:p-6">
          <h2 className="text-lg font-semibold">Order summary</h2>
          <div className="mt-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
            <div>
              <p className="font-medium">{c.title}</p>
              <div className="mt-1">
                <LevelBadge level={c.level} />
              </div>
              <p className="mt-1 text-sm text-muted">{c.duration} · lifetime access · certificate on completion</p>
            </div>
            <p className="font-semibold">{formatPrice(c.price)}</p>
          </div>
          <div className="mt-6">
            <TextField
              label="Coupon code"
              name="coupon"
              autoComplete="off"
              value={code}
              onChange={(e) => onCouponChange(e.target.value)}
              errorId={coupon.status === "invalid" ? couponErrorId : undefined}
              hint={
                coupon.status === "valid"
                  ? describeCoupon(coupon.coupon)
                  : coupon.status === "checking"
                    ? "Checking..."
                    : "One coupon per order."
              }
            />
            <div className="mt-2">
              <FormError id={couponErrorId} message={coupon.status === "invalid" ? coupon.message : null} />
            </div>
            <Button
              variant="secondary"
              size="sm"
              className="mt-2"
              disabled={coupon.status !== "valid"}
              onClick={() => coupon.status === "valid" && void applyCoupon(coupon.coupon)}
            >
              Apply coupon
            </Button>
          </div>
          <dl className="mt-6 space-y-2 border-t border-line pt-4 text-sm">
            <div className="flex flex-wrap justify-between gap-x-4">
              <dt>Subtotal</dt>
              <dd>{formatPrice(intent?.originalAmount ?? c.price)}</dd>
            </div>
            {discount > 0 && (
              <div className="flex flex-wrap justify-between gap-x-4 text-green-800">
                <dt>Discount ({intent?.coupon ? describeCoupon(intent.coupon) : ""})</dt>
                <dd>-{formatPrice(discount)}</dd>
              </div>
            )}
            <div className="flex flex-wrap justify-between gap-x-4 text-base font-bold">
              <dt>Total</dt>
              <dd data-testid="order-total">{formatPrice(total)}</dd>
            </div>
          </dl>
        </Card>
        <Card className="h-fit p-4 sm:p-6">
          <h2 className="text-lg font-semibold">{intent?.isFree ? "Claim your course" : "Payment"}</h2>
          <div className="mt-4">
            {payments.data?.enabled === false ? (
              <PurchasingUnavailable />
            ) : payment.failed ? (
              <div className="space-y-3">
                <p className="text-sm text-danger">Failed to create payment intent. Please try again.</p>
                <Button onClick={payment.retry}>Try again</Button>
              </div>
            ) : !intent ? (
              <Skeleton className="h-48" />
            ) : intent.isFree ? (
              <div className="space-y-4 text-center">
                <Gift className="mx-auto text-brand-700" size={40} aria-hidden="true" />
                <p>Your coupon covers the full price of this course.</p>
                <Button size="lg" className="w-full" onClick={() => void claimFree()} pending={busy}>
                  {busy ? "Claiming..." : "Claim Free Course"}
                </Button>
              </div>
            ) : intent.provider === "stripe" && intent.publishableKey && intent.clientSecret ? (
              <Suspense fallback={<Skeleton className="h-48" />}>
                <StripePayment
                  publishableKey={intent.publishableKey}
                  clientSecret={intent.clientSecret}
                  returnUrl={`${window.location.origin}${paths.course(courseId)}`}
                  submitLabel={`Pay ${formatPrice(total)}`}
                  onResult={(r) => void handleStatus(intent.paymentIntentId!, r)}
                />
              </Suspense>
            ) : (
              <SandboxCardForm submitLabel={`Pay ${formatPrice(total)}`} busy={busy} onSubmit={paySandbox} />
            )}
          </div>
        </Card>
      </div>
    </PageContainer>
  );
}
