import { Fragment, type HTMLAttributes, type ReactNode } from "react";

export function Card({ className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  // A background or border colour passed in replaces the default one.
  const bg = /(^|\s)bg-/.test(className) ? "" : "bg-surface";
  const border = /(^|\s)border-(?!\d)[a-z]/.test(className) ? "" : "border-line";
  return <div className={`rounded-2xl border shadow-sm ${border} ${bg} ${className}`} {...props} />;
}

export function Badge({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${className}`}>
      {children}
    </span>
  );
}

export function ProgressBar({ value, label, className = "" }: { value: number; label: string; className?: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className={`h-2 w-full overflow-hidden rounded-full bg-slate-200 ${className}`}
    >
      <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${clamped}%` }} />
    </div>
  );
}

export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded-md bg-slate-200 ${className}`} />;
}

export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[50vh] items-center justify-center">
      <div className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function PageContainer({ children, className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  const width = /(^|\s)max-w-/.test(className) ? "" : "max-w-6xl";
  return (
    <div className={`mx-auto w-full px-4 py-8 sm:px-6 lg:px-8 ${width} ${className}`} {...props}>
      {children}
    </div>
  );
}

export function StatCard({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <div className="shrink-0 rounded-xl bg-brand-50 p-3 text-brand-700">{icon}</div>
      <div className="min-w-0">
        <p className="text-sm text-muted">{label}</p>
        <p className="text-xl font-bold">{value}</p>
      </div>
    </Card>
  );
}

/**
 * A certificate ID (HWA-XXXXXXXXXXXXXXXX) that may wrap only after a hyphen: no break inside a group of
 * characters (overflow-wrap back to normal), and <wbr> leaves nothing extra in a copied ID.
 */
export function CertificateId({ id, className = "" }: { id: string; className?: string }) {
  const groups = id.split("-").map((group, i, all) => (i < all.length - 1 ? `${group}-` : group));
  return (
    <span data-certificate-id="" className={`font-mono [overflow-wrap:normal] ${className}`}>
      {groups.map((group, i) => (
        <Fragment key={`${group}@${i.toString()}`}>
          {i > 0 && <wbr />}
          {group}
        </Fragment>
      ))}
    </span>
  );
}
