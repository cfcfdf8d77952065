import { BadgeCheck, Download, Share2 } from "lucide-react";
import { Link, useParams } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { RegisterAsPractitionerLink } from "#client/components/layout/register-practitioner-link.tsx";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { ClaimText } from "#client/components/ui/claim.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { useSiteConfig, useSiteContent } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { linkedInUrl, useCertificate, useReissueCertificate } from "./api.ts";
import { CertificateDocument } from "./certificate-card.tsx";
import { useCertificateActions } from "./use-certificate-actions.ts";

export default function CertificatePage() {
  const { courseId = "" } = useParams();
  const { data: cert, isPending, isError } = useCertificate(courseId);
  const { practitionerAppUrl } = useSiteConfig();
  const promo = useSiteContent()?.practitionerApp.promo;
  const actions = useCertificateActions();
  const toast = useToast();
  useDocumentMeta({
    title: cert ? `Certificate: ${cert.courseTitle} | ${BRAND_NAME}` : `Certificate | ${BRAND_NAME}`,
    description: cert
      ? `Your ${BRAND_NAME} certificate of completion for ${cert.courseTitle}: download the PDF or share it.`
      : `Your ${BRAND_NAME} certificate of completion.`,
  });
  const reissue = useReissueCertificate(courseId, {
    onSuccess: () => {
      toast({ title: "Certificate Reissued", description: "Your certificate now shows your current name." });
    },
  });

  if (isPending)
    return (
      <PageContainer className="max-w-4xl" aria-busy="true">
        <Skeleton className="h-96" />
      </PageContainer>
    );
  if (isError || !cert) {
    return (
      <PageContainer className="max-w-2xl py-16 text-center">
        <h1 className="text-3xl font-bold">Certificate Not Found</h1>
        <p className="mt-3 text-muted">This certificate could not be found. Make sure you have completed the course.</p>
        <Link to={paths.course(courseId)} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Course
        </Link>
      </PageContainer>
    );
  }

  return (
    <PageContainer className="max-w-4xl">
      <Link to={paths.course(courseId)} className="text-sm text-muted hover:underline">
        ← Back to Course
      </Link>
      <div className="mt-4">
        <CertificateDocument
          holderName={cert.holderName}
          courseTitle={cert.courseTitle}
          completedAt={cert.completedAt}
          expiresAt={cert.expiresAt}
          certificateId={cert.certificateId}
          status={cert.status}
          creditStatement={cert.creditStatement}
          assessmentStatement={cert.assessmentStatement}
        />
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button onClick={() => void actions.download(cert)}>
          <Download size={18} aria-hidden="true" />
          Download PDF
        </Button>
        <Button variant="secondary" onClick={() => void actions.share(cert)}>
          <Share2 size={18} aria-hidden="true" />
          Share Certificate
        </Button>
        <ExternalLink href={linkedInUrl(cert)} className={buttonClasses("secondary")}>
          <BadgeCheck size={18} aria-hidden="true" />
          Add to LinkedIn profile
        </ExternalLink>
        <Link to={paths.verify(cert.certificateId)} className={buttonClasses("ghost")}>
          Open verification page
        </Link>
      </div>
      {cert.nameDiffersFromProfile && (
        <Card className="mt-6 flex flex-col gap-3 border-blue-200 bg-blue-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-blue-950">
            Your profile name or its order has changed since this certificate was issued. It keeps its ID if you reissue
            it with your current name.
          </p>
          <Button variant="secondary" onClick={() => reissue.mutate(cert.certificateId)} pending={reissue.isPending}>
            Reissue with my current name
          </Button>
        </Card>
      )}
      <section
        aria-labelledby="promo-heading"
        className="mt-10 rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-6 text-white sm:p-8"
      >
        <h2 id="promo-heading" className="text-2xl font-bold">
          {promo?.title}
        </h2>
        {/* Production leaves out a count or earnings figure without its source and date (decision 0058). */}
        {promo && promo.claims.length > 0 && (
          <ul className="mt-4 grid gap-2 sm:grid-cols-2">
            {promo.claims.map((claim) => (
              <li key={claim.text}>
                <ClaimText claim={claim} qualifierClass="text-brand-100" />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-4 text-sm text-brand-100">
          {promo?.note}{" "}
          <Link to={paths.practitionerRegistration} className="text-white underline">
            How registration works and what is verified
          </Link>
        </p>
        <RegisterAsPractitionerLink appUrl={practitionerAppUrl} className={buttonClasses("light", "md", "mt-5")} />
      </section>
    </PageContainer>
  );
}
