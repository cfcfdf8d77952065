import { Fragment } from "react";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { RESULT_LABELS } from "./result-labels.ts";

const dollars = (v: unknown) => (typeof v === "number" ? formatPrice(v) : text(v));

/** The detail fields admin actions write (docs/decisions/0009), with their labels and units. */
const FIELDS: Record<string, { label: string; format?: (v: unknown) => string }> = {
  amount: { label: "Amount", format: dollars },
  amountOff: { label: "Dollars off", format: dollars },
  percentOff: { label: "Percent off", format: (v) => `${text(v)}%` },
  courseId: { label: "Course" },
  assessment: { label: "Quiz or exam", format: (v) => (v === "exam" ? "Final exam" : `Module ${text(v)} quiz`) },
  timeMultiplier: { label: "Exam time", format: (v) => `${text(v)}× the set time` },
  reason: { label: "Reason" },
  userId: { label: "Learner id" },
  refundId: { label: "Refund id" },
  accessEnded: { label: "Access ended" },
  certificatesRevoked: { label: "Certificates revoked" },
  code: { label: "Code" },
  expiresAt: { label: "Expires" },
  maxRedemptions: { label: "Maximum uses" },
  ...Object.fromEntries(Object.entries(RESULT_LABELS).map(([key, label]) => [key, { label }])),
};

/** 'refundId' and 'already-enrolled' read as 'Refund id' and 'Already enrolled'. */
const labelFor = (key: string) =>
  FIELDS[key]?.label ??
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[-_]+/g, " ")
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());

function text(value: unknown): string {
  if (value === null || value === undefined || value === "") return "None";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value)) return formatLongDate(value);
  if (Array.isArray(value)) return value.length ? value.map(text).join(", ") : "None";
  if (typeof value === "object")
    return Object.entries(value)
      .map(([k, v]) => `${labelFor(k)}: ${text(v)}`)
      .join("; ");
  return String(value);
}

/** An audit row's details as labelled values, not JSON. */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="text-muted">None</span>;
  return (
    <dl data-testid="audit-details" className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {entries.map(([key, value]) => (
        <Fragment key={key}>
          <dt className="font-semibold text-slate-700">{labelFor(key)}</dt>
          <dd className="wrap-anywhere">{(FIELDS[key]?.format ?? text)(value)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
