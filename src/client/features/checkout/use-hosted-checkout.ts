import { useState } from "react";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { createCheckoutSession } from "./api.ts";

/** Starts a hosted checkout session and sends the browser to it. */
export function useHostedCheckout(courseId: string) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const { checkoutUrl } = await createCheckoutSession(courseId);
      if (!checkoutUrl) {
        toast({
          title: "No checkout URL received",
          description: "Failed to start checkout. Please try again.",
          variant: "destructive",
        });
        setBusy(false);
        return;
      }
      window.location.assign(checkoutUrl);
    } catch (error) {
      toast({
        title: "Payment Error",
        description: refusal(error, "Failed to create checkout session"),
        variant: "destructive",
      });
      setBusy(false);
    }
  };
  return { start, busy };
}
