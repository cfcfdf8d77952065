import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";

/** Shown on routes whose screens are still being built. */
export default function ComingNextPage({ title }: { title: string }) {
  useDocumentMeta({ title: `${title} | Holistic Wellness Academy` });
  return (
    <PageContainer className="py-24 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-muted">This part of the academy is coming next.</p>
      <Link to={paths.home} className={buttonClasses("secondary", "md", "mt-6")}>Back to Home</Link>
    </PageContainer>
  );
}
