import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useSiteConfig, useSiteContent } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

/** How registering on the practitioner app works, and what it checks about a certificate. */
export default function RegisterPractitionerPage() {
  const content = useSiteContent()?.practitionerApp.registration;
  const { practitionerAppUrl } = useSiteConfig();
  useDocumentMeta({
    title: `Register as a practitioner | ${BRAND_NAME}`,
    description: `How ${BRAND_NAME} graduates register on the companion practitioner app, and what is verified.`,
  });
  if (!content) return <Spinner />;
  return (
    <PageContainer className="max-w-3xl">
      <h1 className="font-serif text-3xl font-bold">{content.title}</h1>
      <p className="mt-4 text-lg text-slate-700">{content.intro}</p>
      <h2 className="mt-8 text-xl font-semibold">How registration works</h2>
      <ol className="mt-3 list-decimal space-y-2 pl-6 text-slate-800">
        {content.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <h2 className="mt-8 text-xl font-semibold">What is verified</h2>
      <ul className="mt-3 space-y-2 text-slate-800">
        {content.verified.map((item) => (
          <li key={item} className="flex gap-3">
            <CheckCircle2 className="mt-0.5 shrink-0 text-brand-700" aria-hidden="true" />
            {item}
          </li>
        ))}
      </ul>
      <p className="mt-8 rounded-2xl border border-line bg-white p-5 text-slate-700">{content.note}</p>
      {!practitionerAppUrl && (
        <section aria-labelledby="directory-heading" className="mt-8">
          <h2 id="directory-heading" className="text-xl font-semibold">
            Until the app opens: the academy's directory
          </h2>
          <p className="mt-3 text-slate-700">
            The practitioner app is not open for registration yet. Holders of a valid certificate can list themselves in
            the academy's public directory from their profile; a listing shows only while its certificate is valid,
            checked the same way as above.
          </p>
        </section>
      )}
      <div className="mt-8 flex flex-wrap gap-3">
        {practitionerAppUrl ? (
          <ExternalLink href={practitionerAppUrl} className={buttonClasses("primary")}>
            Open the practitioner app
          </ExternalLink>
        ) : (
          <>
            <Link to={paths.profile} className={buttonClasses("primary")}>
              List me in the directory
            </Link>
            <Link to={paths.practitioners} className={buttonClasses("secondary")}>
              Browse the directory
            </Link>
          </>
        )}
        <Link to={paths.certificates} className={buttonClasses("secondary")}>
          My Certificates
        </Link>
      </div>
    </PageContainer>
  );
}
