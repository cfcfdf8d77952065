import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

export const LEGAL_DATE = "January 31, 2025";

export function LegalPage({ title, sections }: { title: string; sections: { heading: string; body: ReactNode }[] }) {
  useDocumentMeta({ title: `${title} | ${BRAND_NAME}`, description: `The ${title} of ${BRAND_NAME}.` });
  return (
    <PageContainer className="max-w-3xl">
      <Link to={paths.home} className={buttonClasses("secondary", "sm")}>
        Back to Home
      </Link>
      <h1 className="mt-6 text-3xl font-bold">{title}</h1>
      <p className="mt-2 text-sm text-muted">Last updated: {LEGAL_DATE}</p>
      <div className="mt-8 space-y-8">
        {sections.map((s, i) => (
          <section key={s.heading}>
            <h2 className="text-xl font-semibold">
              {i + 1}. {s.heading}
            </h2>
            <div className="mt-2 space-y-3 leading-7 text-slate-700">{s.body}</div>
          </section>
        ))}
      </div>
    </PageContainer>
  );
}
