import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

export default function NotFoundPage() {
  useDocumentMeta({
    title: `404 Page Not Found | ${BRAND_NAME}`,
    description: `There is no page at this address on ${BRAND_NAME}.`,
  });
  return (
    <PageContainer className="flex flex-col items-center py-24 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-3 text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
        Back to Home
      </Link>
    </PageContainer>
  );
}
