import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { usePurchases } from "#client/lib/purchases.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useSiteConfig } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import { formatPrice } from "#shared/format.ts";
import { useCourseEnrollment, useSettleCheckouts } from "./api.ts";

/** /checkout/success: asks the server to check this learner's checkouts with the provider; it enrols only paid ones. */
export default function CheckoutSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const courseId = params.get("course_id");
  const { user } = useCurrentUser();
  const { supportEmail } = useSiteConfig();
  const ready = !!(sessionId && courseId && user);
  const settle = useSettleCheckouts();
  const { mutate: settleCheckouts } = settle;
  // Once per visit; the server enrols only checkouts the provider reports as paid.
  useEffect(() => {
    if (ready) settleCheckouts();
  }, [ready, settleCheckouts]);
  // A payment still processing (the 0077 test card, a bank debit) enrols when it settles: ask again until then.
  const processing = !!courseId && !!settle.data?.pending.includes(courseId);
  // Read after settling; also true when a webhook enrolled the learner before this page asked.
  const enrollment = useCourseEnrollment(courseId ?? "", {
    enabled: ready && !settle.isIdle && !settle.isPending,
    poll: processing,
  });
  useDocumentMeta({
    title: `Checkout | ${BRAND_NAME}`,
    description: `Your ${BRAND_NAME} payment is confirmed and your course is ready.`,
  });

  const purchases = usePurchases({ enabled: ready && enrollment.enrolled });
  // The newest order of this course that took the learner in (the list is newest first).
  const bought = purchases.data?.find((p) => p.courseId === courseId && p.status === "paid");

  if (ready && (settle.isIdle || settle.isPending || enrollment.isPending))
    return <Spinner label="Confirming your payment" />;
  const ok = ready && enrollment.enrolled;
  if (ready && processing && !ok && !enrollment.gaveUp)
    return (
      <PageContainer className="max-w-xl py-12">
        <Card className="p-8 text-center" role="status">
          <div
            className="mx-auto h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700"
            aria-hidden="true"
          />
          <h1 className="mt-3 text-3xl font-bold">Payment Processing</h1>
          <p className="mt-2 text-muted">
            Your payment is being processed. You will be enrolled as soon as it completes; this page updates by itself.
          </p>
        </Card>
      </PageContainer>
    );
  return (
    <PageContainer className="max-w-xl py-12">
      {ok ? (
        <Card className="p-8 text-center">
          <CheckCircle2 className="mx-auto text-green-700" size={48} aria-hidden="true" />
          <h1 className="mt-3 text-3xl font-bold">Payment Successful!</h1>
          <p className="mt-2 text-muted" data-testid="success-summary">
            {bought ? (
              <>
                You are enrolled in <strong className="text-ink">{bought.courseTitle}</strong>
                {bought.kind === "free"
                  ? `, claimed free${bought.couponCode ? ` with the coupon ${bought.couponCode}` : ""}.`
                  : `: ${formatPrice(bought.amount)} paid.`}{" "}
                <Link to={paths.receipt(bought.orderId)} className="text-brand-800 underline">
                  View your receipt
                </Link>
              </>
            ) : (
              "You are enrolled."
            )}
          </p>
          <p className="mt-4 text-muted">Here is what happens next:</p>
          <ul className="mx-auto mt-2 max-w-sm list-disc space-y-1 pl-5 text-left text-slate-700">
            <li>Your course is waiting in My Learning</li>
            <li>Study each lesson and pass each module's quiz with {PASS_MARK}% or more</li>
            <li>Pass the final exam and the practical skills assessment to earn your certificate</li>
          </ul>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to={paths.myLearning} className={buttonClasses("primary")}>
              Start Learning Now
            </Link>
            <Link to={paths.home} className={buttonClasses("secondary")}>
              Return to Dashboard
            </Link>
          </div>
        </Card>
      ) : (
        <Card className="p-8 text-center">
          <AlertTriangle className="mx-auto text-amber-600" size={48} aria-hidden="true" />
          <h1 className="mt-3 text-3xl font-bold">Payment Issue</h1>
          <p className="mt-2 text-muted">
            If your payment was successful, your access will appear shortly. If it does not, please contact support at{" "}
            <a className="text-brand-700 underline" href={`mailto:${supportEmail}`}>
              {supportEmail}
            </a>
            .
          </p>
          <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
            Return to Dashboard
          </Link>
        </Card>
      )}
    </PageContainer>
  );
}
