import { loadStripe, type Stripe, type StripeElements } from "@stripe/stripe-js";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";

/** Stripe's Payment Element; loaded only when the server uses Stripe. Reports the intent's final status. */
export default function StripePayment({
  publishableKey,
  clientSecret,
  returnUrl,
  submitLabel,
  onResult,
}: {
  publishableKey: string;
  clientSecret: string;
  returnUrl: string;
  submitLabel: string;
  onResult: (result: { status: string; error: string | null }) => void;
}) {
  const mount = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [elements, setElements] = useState<StripeElements | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void loadStripe(publishableKey).then((s) => {
      if (cancelled || !s || !mount.current) return;
      const els = s.elements({ clientSecret });
      els.create("payment").mount(mount.current);
      setStripe(s);
      setElements(els);
    });
    return () => {
      cancelled = true;
    };
  }, [publishableKey, clientSecret]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    const { error, paymentIntent } = await stripe.confirmPayment({
      elements,
      redirect: "if_required",
      confirmParams: { return_url: returnUrl },
    });
    setBusy(false);
    onResult(
      error
        ? { status: error.payment_intent?.status ?? "requires_payment_method", error: error.message ?? null }
        : { status: paymentIntent?.status ?? "processing", error: null },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <div ref={mount} />
      <Button type="submit" size="lg" className="w-full" disabled={!stripe} pending={busy}>
        {busy ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}
