import { ArrowLeft, ExternalLink as ExternalIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { formatPrice } from "#shared/format.ts";
import { Button } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourse } from "#client/features/courses/api.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { usePaymentsConfig } from "./api.ts";
import { TestPaymentsBanner } from "./card-form.tsx";
import { useHostedCheckout } from "./use-hosted-checkout.ts";

/** /firebase-checkout/:courseId: one button that starts a hosted checkout. */
export default function HostedCheckoutPage() {
  const { courseId = "" } = useParams();
  const course = useCourse(courseId);
  const payments = usePaymentsConfig();
  const { start, busy } = useHostedCheckout(courseId);
  useDocumentMeta({ title: "Buy course | Holistic Wellness Academy" });
  return (
    <PageContainer className="max-w-xl">
      <Link to={paths.home} className="inline-flex items-center gap-1 text-sm text-muted hover:underline"><ArrowLeft size={16} aria-hidden="true" />Back to Courses</Link>
      {payments.data?.testPaymentsBanner && <div className="mt-4"><TestPaymentsBanner /></div>}
      <Card className="mt-4 p-6 text-center">
        {course.isPending ? <Skeleton className="h-24" /> : course.isError ? (
          <p className="text-danger">Failed to load course details</p>
        ) : (
          <>
            <h1 className="text-2xl font-bold">{course.data.title}</h1>
            <p className="mt-2 text-3xl font-bold text-brand-800">{formatPrice(course.data.price)}</p>
            <Button size="lg" className="mt-6 w-full" onClick={() => void start()} disabled={busy}>
              {busy ? "Redirecting..." : `Buy Now - ${formatPrice(course.data.price)}`}
            </Button>
            <p className="mt-3 flex items-center justify-center gap-1 text-sm text-muted"><ExternalIcon size={14} aria-hidden="true" />You will be redirected to a secure hosted checkout page to complete your purchase.</p>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
