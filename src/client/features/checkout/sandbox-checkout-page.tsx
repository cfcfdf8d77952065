import { Lock } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { formatPrice } from "#shared/format.ts";
import { paySandboxSession, type SandboxCardInput, useSandboxSession } from "./api.ts";
import { SandboxCardForm, TestPaymentsBanner } from "./card-form.tsx";

/** The sandbox's hosted checkout: a page that stands in for the provider's payment page. */
export default function SandboxCheckoutPage() {
  const { sessionId = "" } = useParams();
  const session = useSandboxSession(sessionId);
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  useDocumentMeta({
    title: "Secure checkout (test mode)",
    description: "The test-mode hosted checkout: pay with a test card.",
  });

  const pay = async (card: SandboxCardInput): Promise<string | undefined> => {
    setBusy(true);
    try {
      const result = await paySandboxSession(sessionId, card);
      if (result.redirectUrl) {
        navigate(result.redirectUrl);
        return;
      }
      const description = result.error ?? "Please try a different card.";
      toast({ title: "Payment Failed", description, variant: "destructive" });
      return description;
    } catch (error) {
      const description = refusal(error);
      toast({ title: "Payment Failed", description, variant: "destructive" });
      return description;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="min-h-[70vh] bg-slate-100 py-10">
      <PageContainer className="max-w-md">
        <TestPaymentsBanner />
        <Card className="p-6">
          <p className="flex items-center gap-2 text-sm font-semibold text-slate-600">
            <Lock size={14} aria-hidden="true" />
            Secure checkout
          </p>
          {session.isPending ? (
            <Skeleton className="mt-4 h-56" />
          ) : session.isError ? (
            <p role="alert" className="mt-4 text-danger">
              This checkout session could not be found.
            </p>
          ) : session.data.status !== "open" ? (
            <div className="mt-4">
              <h1 className="text-xl font-bold">This checkout is already complete.</h1>
              <Link className="text-brand-700 underline" to={session.data.successUrl}>
                Continue
              </Link>
            </div>
          ) : (
            <>
              <h1 className="mt-2 text-xl font-bold">{session.data.courseTitle}</h1>
              <p className="mt-1 text-3xl font-bold">{formatPrice(session.data.amount)}</p>
              <div className="mt-6">
                <SandboxCardForm submitLabel={`Pay ${formatPrice(session.data.amount)}`} busy={busy} onSubmit={pay} />
              </div>
              <Link to={session.data.cancelUrl} className="mt-4 block text-center text-sm text-muted underline">
                Cancel and return to the course
              </Link>
            </>
          )}
        </Card>
      </PageContainer>
    </div>
  );
}
