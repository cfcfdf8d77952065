import { ExternalLink as ExternalIcon } from "lucide-react";
import { useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatPrice } from "#shared/format.ts";
import { CheckoutShell } from "./checkout-shell.tsx";
import { useHostedCheckout } from "./use-hosted-checkout.ts";

/** /firebase-checkout/:courseId: one button that starts a hosted checkout. */
export default function HostedCheckoutPage() {
  const { courseId = "" } = useParams();
  const { start, busy } = useHostedCheckout(courseId);
  useDocumentMeta({
    title: `Buy course | ${BRAND_NAME}`,
    description: `Buy a ${BRAND_NAME} course through a secure hosted checkout.`,
  });
  return (
    <CheckoutShell courseId={courseId} className="text-center">
      {(course) => (
        <>
          <h1 className="text-2xl font-bold">{course.title}</h1>
          <p className="mt-2 text-3xl font-bold text-brand-800">{formatPrice(course.price)}</p>
          <Button size="lg" className="mt-6 w-full" onClick={() => void start()} pending={busy}>
            {busy ? "Redirecting..." : `Buy Now - ${formatPrice(course.price)}`}
          </Button>
          <p className="mt-3 flex items-center justify-center gap-1 text-sm text-muted">
            <ExternalIcon size={14} aria-hidden="true" />
            You will be redirected to a secure hosted checkout page to complete your purchase.
          </p>
        </>
      )}
    </CheckoutShell>
  );
}
