import { Award, CalendarDays, Download } from "lucide-react";
import { Link } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { Card, CertificateId, PageContainer, Skeleton, StatCard } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useEnrollments } from "#client/lib/courses.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { Certificate } from "#shared/schemas/certificates.ts";
import { useCertificates } from "./api.ts";
import { LifecycleBadge } from "./certificate-card.tsx";
import { useCertificateActions } from "./use-certificate-actions.ts";

export default function CertificatesPage() {
  useDocumentMeta({
    title: `My Certificates | ${BRAND_NAME}`,
    description: `The certificates you earned at ${BRAND_NAME}: view, download and share them.`,
  });
  const certificates = useCertificates();
  const enrollments = useEnrollments();
  const actions = useCertificateActions();
  if (certificates.isPending)
    return (
      <PageContainer aria-busy="true">
        <Skeleton className="h-9 w-56" />
        <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
      </PageContainer>
    );
  const list = certificates.data ?? [];
  const latest = list[0];
  return (
    <PageContainer>
      <h1 className="font-serif text-3xl font-bold">My Certificates</h1>
      <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <StatCard label="Certificates Earned" value={String(list.length)} icon={<Award aria-hidden="true" />} />
        <StatCard
          label="Latest Certificate"
          value={latest ? formatLongDate(latest.completedAt) : "None yet"}
          icon={<CalendarDays aria-hidden="true" />}
        />
        <StatCard
          label="Ready to Download"
          value={String(list.filter((c) => c.status === "valid").length)}
          icon={<Download aria-hidden="true" />}
        />
      </div>
      {list.length === 0 ? (
        (enrollments.data ?? []).length === 0 ? (
          <Card className="mt-8 p-10 text-center">
            <h2 className="text-xl font-semibold">No certificates yet</h2>
            <p className="mt-2 text-muted">Enrol in a course and complete it to earn your first certificate.</p>
            <Link to={paths.home} className={buttonClasses("primary", "md", "mt-5")}>
              Browse Courses
            </Link>
          </Card>
        ) : (
          <Card className="mt-8 p-10 text-center">
            <h2 className="text-xl font-semibold">No certificates earned yet</h2>
            <p className="mt-2 text-muted">
              Complete every lesson of a course, pass its module quizzes and final exam, and pass its practical skills
              assessment to earn your certificate.
            </p>
            <Link to={paths.myLearning} className={buttonClasses("primary", "md", "mt-5")}>
              Continue Learning
            </Link>
          </Card>
        )
      ) : (
        <div className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2">
          {list.map((c) => (
            <Card key={c.certificateId} className="p-5" data-testid={`certificate-${c.courseId}`}>
              <div className="flex items-start justify-between gap-3">
                <h2 className="text-lg font-semibold">{c.courseTitle}</h2>
                <LifecycleBadge lifecycle={c.lifecycle} />
              </div>
              <dl className="mt-3 grid grid-cols-1 gap-x-2 gap-y-1 text-sm min-[24rem]:grid-cols-2 min-[24rem]:gap-y-2">
                <dt className="text-muted">Certificate ID</dt>
                <dd>
                  <CertificateId id={c.certificateId} />
                </dd>
                <dt className="text-muted">Issued to</dt>
                <dd>{c.holderName}</dd>
                <dt className="text-muted">Completed</dt>
                <dd>{formatLongDate(c.completedAt)}</dd>
                <dt className="text-muted">Valid until</dt>
                <dd>{formatLongDate(c.expiresAt)}</dd>
                {c.creditStatement && (
                  <>
                    <dt className="text-muted">{c.ceHours != null ? "CE hours" : "Study time"}</dt>
                    <dd>{c.creditStatement}</dd>
                  </>
                )}
              </dl>
              <RenewalNote certificate={c} />
              <div className="mt-4 flex flex-wrap gap-2">
                <Link to={paths.courseCertificate(c.courseId)} className={buttonClasses("primary", "sm")}>
                  View<span className="sr-only"> certificate: {c.courseTitle}</span>
                </Link>
                {/* Spec: Download opens the certificate page (with its Download PDF) in a new tab. */}
                <a
                  href={paths.courseCertificate(c.courseId)}
                  target="_blank"
                  rel="noopener"
                  className={buttonClasses("secondary", "sm")}
                >
                  Download<span className="sr-only"> certificate: {c.courseTitle} (opens in a new tab)</span>
                </a>
                <Button size="sm" variant="secondary" onClick={() => void actions.share(c)}>
                  Share Certificate<span className="sr-only">: {c.courseTitle}</span>
                </Button>
                {c.canRenew && (
                  <Link to={paths.recertify(c.courseId)} className={buttonClasses("primary", "sm")}>
                    Renew<span className="sr-only"> certificate: {c.courseTitle}</span>
                  </Link>
                )}
              </div>
            </Card>
          ))}
        </div>
      )}
    </PageContainer>
  );
}

/** What the holder can do about expiry: when renewal opens, until when it stays open. */
function RenewalNote({ certificate: c }: { certificate: Certificate }) {
  const text =
    c.lifecycle === "expiring"
      ? `Expires on ${formatLongDate(c.expiresAt)}. Renew now with the recertification exam: the new period starts from the old expiry date.`
      : c.lifecycle === "expired" && c.canRenew
        ? `Expired. You can renew it with the recertification exam until ${formatLongDate(c.renewalClosesAt)}.`
        : c.lifecycle === "expired"
          ? "Expired, and the renewal window has closed."
          : null;
  if (!text) return null;
  return (
    <p className="mt-3 text-sm text-amber-900" data-testid="renewal-note">
      {text}
    </p>
  );
}
