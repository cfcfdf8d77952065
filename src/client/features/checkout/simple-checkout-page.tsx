import { CheckCircle2 } from "lucide-react";
import { useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatPrice } from "#shared/format.ts";
import { CheckoutShell } from "./checkout-shell.tsx";
import { useHostedCheckout } from "./use-hosted-checkout.ts";

const WHAT_YOU_GET = [
  "Instant access to all course materials",
  "Certification on completion",
  "Lifetime access",
  "Progress tracking",
];

/** /simple-checkout/:courseId: a summary that leads to the hosted checkout. */
export default function SimpleCheckoutPage() {
  const { courseId = "" } = useParams();
  const { user } = useCurrentUser();
  const { start, busy } = useHostedCheckout(courseId);
  useDocumentMeta({
    title: `Checkout | ${BRAND_NAME}`,
    description: `What you get with a ${BRAND_NAME} course, and the way to pay for it.`,
  });
  return (
    <CheckoutShell courseId={courseId}>
      {(course) => (
        <>
          <h1 className="text-2xl font-bold">{course.title}</h1>
          <p className="mt-1 text-3xl font-bold text-brand-800">{formatPrice(course.price)}</p>
          <h2 className="mt-6 font-semibold">What you get</h2>
          <ul className="mt-2 space-y-2">
            {WHAT_YOU_GET.map((item) => (
              <li key={item} className="flex items-center gap-2">
                <CheckCircle2 size={18} className="text-green-700" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
          {!user?.email ? (
            <p role="alert" className="mt-6 text-danger">
              User must be logged in to make a purchase
            </p>
          ) : (
            <Button size="lg" className="mt-6 w-full" onClick={() => void start()} pending={busy}>
              {busy ? "Redirecting..." : "Continue to Payment"}
            </Button>
          )}
        </>
      )}
    </CheckoutShell>
  );
}
