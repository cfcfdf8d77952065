import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card, CertificateId } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { formatLongDate } from "#shared/format.ts";
import { type ExpiringCertificate, extendCertificateInputSchema } from "#shared/schemas/certificate-lifecycle.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { type ExpiringWindow, expiringCsvUrl, useExpiringCertificates, useExtendCertificate } from "./api.ts";
import { useInlineFocus } from "./use-inline-focus.ts";

const WINDOWS: { value: ExpiringWindow; label: string }[] = [
  { value: "30", label: "Next 30 days" },
  { value: "60", label: "Next 60 days" },
  { value: "90", label: "Next 90 days" },
  { value: "expired", label: "Expired in the last 90 days" },
];

const reminderLabel = (kind: string) => (kind === "expired" ? "at expiry" : kind.replace("-days", " days"));

/** Certificates near or past expiry, the reminders each was sent, CSV export, and extension by hand. */
export default function AdminCertificatesPage() {
  const [window, setWindow] = useState<ExpiringWindow>("30");
  const list = useExpiringCertificates(window);
  const rows = list.data ?? [];
  // An extended certificate may leave the window, and its row with it: focus then goes to the list
  // (or the line that says it is empty), never to the page body.
  const results = useRef<HTMLElement>(null);
  useEffect(() => {
    if (list.data && document.activeElement === document.body) results.current?.focus();
  }, [list.data]);
  return (
    <AdminLayout title="Expiring certificates">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">Which certificates</legend>
        {WINDOWS.map((w) => (
          <Button
            key={w.value}
            size="sm"
            variant={w.value === window ? "primary" : "secondary"}
            aria-pressed={w.value === window}
            onClick={() => setWindow(w.value)}
          >
            {w.label}
          </Button>
        ))}
        <a href={expiringCsvUrl(window)} download className={buttonClasses("secondary", "sm", "ml-auto")}>
          Export CSV
        </a>
      </fieldset>
      <section ref={results} tabIndex={-1} aria-label="Certificates in this window" className="mt-6">
        {list.isPending ? (
          <p className="text-muted">Loading…</p>
        ) : rows.length === 0 ? (
          <p className="text-muted">No certificates in this window.</p>
        ) : (
          <ul className="space-y-4" aria-label="Certificates">
            {rows.map((row) => (
              <CertificateRow key={row.certificateId} row={row} />
            ))}
          </ul>
        )}
      </section>
    </AdminLayout>
  );
}

function CertificateRow({ row }: { row: ExpiringCertificate }) {
  const [extending, setExtending] = useState(false);
  const triggerId = `extend-${row.certificateId}`;
  const fieldId = `extend-until-${row.certificateId}`;
  // Into the form when it opens, back to Extend when it closes (Cancel or Save).
  useInlineFocus(extending, triggerId, fieldId);
  return (
    <li>
      <Card className="p-4" data-testid={`expiring-${row.certificateId}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="font-semibold">
            {row.holderName} <span className="font-normal text-muted">({row.email})</span>
          </p>
          <p className="text-sm">
            <CertificateId id={row.certificateId} />
          </p>
        </div>
        <p className="mt-1 text-sm">
          {row.courseTitle}: {row.lifecycle === "expired" ? "expired on" : "expires on"} {formatLongDate(row.expiresAt)}
        </p>
        <p className="mt-1 text-sm text-muted">
          Reminders sent: {row.remindersSent.length ? row.remindersSent.map(reminderLabel).join(", ") : "none yet"}
          {row.unsubscribed ? " · unsubscribed from reminders" : ""}
        </p>
        {extending ? (
          <ExtendForm row={row} fieldId={fieldId} onDone={() => setExtending(false)} />
        ) : (
          <Button id={triggerId} size="sm" variant="secondary" className="mt-3" onClick={() => setExtending(true)}>
            Extend<span className="sr-only"> certificate {row.certificateId}</span>
          </Button>
        )}
      </Card>
    </li>
  );
}

function ExtendForm({ row, fieldId, onDone }: { row: ExpiringCertificate; fieldId: string; onDone: () => void }) {
  const extend = useExtendCertificate();
  const toast = useToast();
  const form = useForm({
    resolver: zodResolver(extendCertificateInputSchema),
    defaultValues: { until: "", reason: "" },
  });
  const error = useFormErrors(form);
  const submit = form.handleSubmit((input) =>
    extend.mutate(
      { certificateId: row.certificateId, ...input },
      {
        onSuccess: (r) => {
          toast({ title: "Certificate extended", description: `Valid until ${formatLongDate(r.expiresAt)}.` });
          onDone();
        },
        onError: (failure) => error.show(refusal(failure), "until"),
      },
    ),
  );
  return (
    <form className="mt-3 grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end" onSubmit={submit} noValidate>
      <TextField id={fieldId} label="New expiry date" type="date" {...error.field("until")} />
      <TextField label="Reason (kept in the audit log)" maxLength={500} {...error.field("reason")} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" pending={extend.isPending}>
          Save extension
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <div className="sm:col-span-3">
        <FormError id={error.errorId} message={error.message} />
      </div>
    </form>
  );
}
