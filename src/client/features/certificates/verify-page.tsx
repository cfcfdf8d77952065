import { ShieldCheck, ShieldX } from "lucide-react";
import { Link, useParams } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { useVerification } from "./api.ts";
import { CertificateDocument } from "./certificate-card.tsx";
import { CredentialCheckPanel } from "./credential-check.tsx";

export default function VerifyPage() {
  const { certificateId = "" } = useParams();
  const { data, isPending, isError } = useVerification(certificateId);
  useDocumentMeta({
    title: `Certificate verification | ${BRAND_NAME}`,
    description: `Check that a ${BRAND_NAME} certificate is genuine and valid.`,
  });
  if (isPending)
    return (
      <PageContainer className="max-w-4xl" aria-busy="true">
        <Skeleton className="h-24" />
        <Skeleton className="mt-6 h-80" />
      </PageContainer>
    );
  if (isError || !data) {
    return (
      <PageContainer className="max-w-2xl py-16 text-center">
        <ShieldX className="mx-auto text-red-700" size={48} aria-hidden="true" />
        <h1 className="mt-3 text-3xl font-bold">Certificate Not Found</h1>
        <p className="mt-3 text-muted">
          No {BRAND_NAME} certificate has the ID {certificateId}. Check the ID and try again.
        </p>
        <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Home
        </Link>
      </PageContainer>
    );
  }
  const valid = data.status === "valid";
  const statusText = {
    valid: "Valid certificate",
    expired: "This certificate has expired",
    revoked: "This certificate has been revoked",
  }[data.status];
  return (
    <PageContainer className="max-w-4xl">
      {/* The page's own h1 comes first (it takes focus after navigation); the verdict and the
          certificate are sections under it. */}
      <h1 className="mb-4 text-3xl font-bold">Certificate verification</h1>
      <Card
        className={`flex items-start gap-4 p-5 ${valid ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`}
        role="status"
        data-testid="verification-status"
      >
        {valid ? (
          <ShieldCheck className="shrink-0 text-green-700" size={32} aria-hidden="true" />
        ) : (
          <ShieldX className="shrink-0 text-red-700" size={32} aria-hidden="true" />
        )}
        <div>
          <h2 className={`text-lg font-bold ${valid ? "text-green-900" : "text-red-900"}`}>{statusText}</h2>
          <p className="text-sm text-slate-700">
            Issued by {data.issuer} to <span className="font-semibold">{data.holderName}</span> for {data.courseTitle},
            completed {formatLongDate(data.completedAt)},{" "}
            {valid ? "valid until" : data.status === "expired" ? "expired on" : "originally valid until"}{" "}
            {formatLongDate(data.expiresAt)}.
            {data.creditStatement && <> {data.creditStatement.replace(/([^.])$/, "$1.")}</>}
          </p>
          <p className="text-sm text-slate-700" data-testid="course-version">
            Earned on course version {data.courseVersion.version}
            {data.courseVersion.publishedAt && <>, published {formatLongDate(data.courseVersion.publishedAt)}</>}
            {data.courseVersion.studyHours !== null && <>, {data.courseVersion.studyHours} hours of study</>}.
          </p>
          {data.courseVersion.learningOutcomes.length > 0 && (
            <div className="mt-2 text-sm text-slate-700" data-testid="course-version-outcomes">
              <h3 className="font-semibold">What that version of the course covers</h3>
              <ul className="list-disc pl-5">
                {data.courseVersion.learningOutcomes.map((outcome) => (
                  <li key={outcome}>{outcome}</li>
                ))}
              </ul>
            </div>
          )}
          {data.status === "revoked" && data.revokedReason && (
            <p className="mt-1 text-sm font-medium text-red-900" data-testid="revoked-reason">
              Reason: {data.revokedReason}
            </p>
          )}
        </div>
      </Card>
      {data.history.length > 0 && (
        <Card className="mt-6 p-5" data-testid="renewal-history">
          <h2 className="text-lg font-semibold">Renewal history</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {data.history.map((h) => (
              <li key={h.at}>
                {formatLongDate(h.at)}:{" "}
                {h.kind === "recertification" ? "renewed by recertification exam" : "extended by the academy"}, valid
                until {formatLongDate(h.newExpiresAt)} (was {formatLongDate(h.previousExpiresAt)})
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-muted">
            Each renewal re-issued the digital credential with the new dates; earlier credentials are superseded, not
            revoked.
          </p>
        </Card>
      )}
      <CredentialCheckPanel certificateId={data.certificateId} />
      <div className="mt-6">
        <CertificateDocument
          holderName={data.holderName}
          courseTitle={data.courseTitle}
          completedAt={data.completedAt}
          expiresAt={data.expiresAt}
          certificateId={data.certificateId}
          status={data.status}
          creditStatement={data.creditStatement}
          assessmentStatement={data.assessmentStatement}
          headingLevel={2}
        />
      </div>
    </PageContainer>
  );
}
