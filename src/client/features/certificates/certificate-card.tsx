import { Award } from "lucide-react";
import { Badge, CertificateId } from "#client/components/ui/misc.tsx";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { CertificateLifecycle, CertificateStatus } from "#shared/schemas/certificates.ts";

/** Where the certificate stands for its holder, on My Certificates. */
export function LifecycleBadge({ lifecycle }: { lifecycle: CertificateLifecycle }) {
  const styles = {
    valid: "bg-green-100 text-green-800",
    expiring: "bg-amber-100 text-amber-900",
    expired: "bg-amber-100 text-amber-900",
    revoked: "bg-red-100 text-red-800",
  } as const;
  const labels = { valid: "Valid", expiring: "Expiring soon", expired: "Expired", revoked: "Revoked" } as const;
  return <Badge className={styles[lifecycle]}>{labels[lifecycle]}</Badge>;
}

export function StatusBadge({ status }: { status: CertificateStatus }) {
  const styles = {
    valid: "bg-green-100 text-green-800",
    expired: "bg-amber-100 text-amber-900",
    revoked: "bg-red-100 text-red-800",
  } as const;
  const labels = { valid: "Valid", expired: "Expired", revoked: "Revoked" } as const;
  return <Badge className={styles[status]}>{labels[status]}</Badge>;
}

/** The certificate as the page and the verification page show it; it mirrors the PDF. */
export function CertificateDocument(props: {
  holderName: string;
  courseTitle: string;
  completedAt: string;
  expiresAt: string;
  certificateId: string;
  status: CertificateStatus;
  /** The certificate's words on hours: CE approval or estimated study time (decision 0052). */
  creditStatement?: string | null;
  /** The practical assessed by a calibrated assessor against the published rubric (docs/decisions/0053). */
  assessmentStatement?: string | null;
  /** h1 where the certificate is the page; h2 under the verify page's own h1. */
  headingLevel?: 1 | 2;
}) {
  const Heading = props.headingLevel === 2 ? "h2" : "h1";
  return (
    <div className="rounded-2xl border-4 border-brand-700 bg-white p-2 shadow-sm" data-testid="certificate-document">
      <div className="rounded-xl border border-brand-100 px-6 py-10 text-center sm:px-12">
        <Award className="mx-auto text-brand-700" size={40} aria-hidden="true" />
        <p className="mt-2 text-xs font-bold tracking-[0.2em] text-brand-700 uppercase">{BRAND_NAME}</p>
        <Heading className="mt-3 font-serif text-3xl font-bold sm:text-4xl">Certificate of Completion</Heading>
        <p className="mt-5 text-muted">This certifies that</p>
        <p
          className="mt-2 border-b border-line pb-3 font-serif text-2xl font-bold break-words sm:text-3xl"
          data-testid="holder-name"
        >
          {props.holderName}
        </p>
        <p className="mt-4 text-muted">has successfully completed the course</p>
        <p className="mt-2 text-xl font-semibold text-brand-800">{props.courseTitle}</p>
        {props.creditStatement && (
          <p className="mt-1 text-sm text-muted" data-testid="ce-hours">
            {props.creditStatement}
          </p>
        )}
        {props.assessmentStatement && (
          <p className="mt-1 text-sm text-muted" data-testid="assessed-by">
            {props.assessmentStatement}
          </p>
        )}
        {props.status !== "valid" && (
          <div className="mt-3">
            <StatusBadge status={props.status} />
          </div>
        )}
        <dl className="mt-8 grid gap-4 text-left sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted">Date Completed</dt>
            <dd className="font-semibold">{formatLongDate(props.completedAt)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Valid Until</dt>
            <dd className="font-semibold">{formatLongDate(props.expiresAt)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Certificate ID</dt>
            <dd className="font-semibold">
              <CertificateId id={props.certificateId} className="text-sm" />
            </dd>
          </div>
        </dl>
        <div className="mt-10 w-full max-w-56 border-t border-ink pt-2 text-left">
          <p className="text-sm font-semibold">Authorized Institution</p>
          <p className="text-xs text-muted">{BRAND_NAME}</p>
        </div>
      </div>
    </div>
  );
}
