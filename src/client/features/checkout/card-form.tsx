import { CreditCard, Lock } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormError } from "#client/components/ui/form.tsx";
import type { SandboxCardInput } from "./api.ts";

/** The test-mode card form: the only place a card number is typed. It goes to the server once and is never kept. */
export function SandboxCardForm({
  submitLabel,
  busy,
  onSubmit,
}: {
  submitLabel: string;
  busy: boolean;
  /** Pays with the card; resolves to the reason when the card was not accepted. */
  onSubmit: (card: SandboxCardInput) => Promise<string | undefined>;
}) {
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const error = useFormError<"number" | "expiry">();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
    if (!match) return error.show("Enter the expiry date as MM / YY.", "expiry");
    error.clear();
    const refused = await onSubmit({
      number: number.replace(/\s+/g, ""),
      expMonth: Number(match[1]),
      expYear: Number(match[2]),
      cvc: cvc.trim(),
    });
    if (refused) error.show(refused, "number");
  };

  const formatNumber = (v: string) =>
    v
      .replace(/\D/g, "")
      .slice(0, 19)
      .replace(/(\d{4})(?=\d)/g, "$1 ");

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" aria-label="Card payment">
      <FormError id={error.errorId} message={error.message} />
      <TextField
        {...error.field("number")}
        label="Card number"
        name="cardnumber"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        required
        value={number}
        onChange={(e) => setNumber(formatNumber(e.target.value))}
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          {...error.field("expiry")}
          label="Expiry (MM / YY)"
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="12 / 30"
          required
          value={expiry}
          onChange={(e) => setExpiry(e.target.value)}
        />
        <TextField
          label="Security code (CVC)"
          name="cvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          required
          maxLength={4}
          value={cvc}
          onChange={(e) => setCvc(e.target.value.replace(/\D/g, ""))}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" pending={busy}>
        <CreditCard size={18} aria-hidden="true" />
        {busy ? "Processing..." : submitLabel}
      </Button>
      <p className="flex items-center justify-center gap-1 text-xs text-muted">
        <Lock size={12} aria-hidden="true" />
        Test mode: use 4242 4242 4242 4242 with any future date and any CVC.
      </p>
    </form>
  );
}

export function TestPaymentsBanner() {
  return (
    <div
      role="note"
      className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm font-semibold text-amber-950"
    >
      Test payments: no real card is charged on this server.
    </div>
  );
}
