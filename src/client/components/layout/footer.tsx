import { Link } from "react-router";
import { paths } from "#client/config/paths.ts";
import { useSiteConfig } from "#client/lib/site-config.ts";
import { BRAND_NAME } from "#shared/constants.ts";

export function Footer() {
  const { supportEmail } = useSiteConfig();
  return (
    <footer className="mt-16 print:hidden border-t border-line bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-muted sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
        {/* The server paints public pages (decision 0032); at New Year its year and the browser's may differ. */}
        <p suppressHydrationWarning>
          © {new Date().getFullYear()} {BRAND_NAME}. Educational courses only; not medical advice.
        </p>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <Link to={paths.terms} className="hover:text-brand-800 hover:underline">
            Terms of Service
          </Link>
          <Link to={paths.privacy} className="hover:text-brand-800 hover:underline">
            Privacy Policy
          </Link>
          <a href={`mailto:${supportEmail}`} className="hover:text-brand-800 hover:underline">
            Support: {supportEmail}
          </a>
        </nav>
      </div>
    </footer>
  );
}
