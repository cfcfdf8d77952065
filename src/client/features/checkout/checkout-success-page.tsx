import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useSiteConfig } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
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
  // Read after settling; also true when a webhook enrolled the learner before this page asked.
  const enrollment = useCourseEnrollment(courseId ?? "", { enabled: ready && !settle.isIdle && !settle.isPending });
  useDocumentMeta({
    title: `Checkout | ${BRAND_NAME}`,
    description: `Your ${BRAND_NAME} payment is confirmed and your course is ready.`,
  });

  if (ready && (settle.isIdle || settle.isPending || enrollment.isPending))
    return <Spinner label="Confirming your payment" />;
  const ok = ready && enrollment.enrolled;
  return (
    <PageContainer className="max-w-xl py-12">
      {ok ? (
        <Card className="p-8 text-center">
          <CheckCircle2 className="mx-auto text-green-700" size={48} aria-hidden="true" />
          <h1 className="mt-3 text-3xl font-bold">Payment Successful!</h1>
          <p className="mt-2 text-muted">You are enrolled. Here is what happens next:</p>
          <ul className="mx-auto mt-4 max-w-sm list-disc space-y-1 pl-5 text-left text-slate-700">
            <li>Your course is waiting in My Learning</li>
            <li>Work through each module and pass its quiz with {PASS_MARK}% or more</li>
            <li>Earn your certificate when every module is complete</li>
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
