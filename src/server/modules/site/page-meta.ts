import { matchClientRoute } from "#shared/client-routes.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

/** What a shared link should say about its page, before any script runs. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute, without query string. */
  canonical: string;
  type: "website" | "article";
}

/** A certificate as its public verify page shows it: a name, never an e-mail. */
export interface PublicCertificate {
  holderName: string;
  courseTitle: string;
  status: "valid" | "expired" | "revoked";
  expiresAt: string;
}

export interface MetaSources {
  appUrl: string;
  catalogue: () => Promise<Catalogue>;
  certificate: (certificateId: string) => Promise<PublicCertificate | null>;
}

const STATUS_WORDS = { valid: "Valid", expired: "Expired", revoked: "Revoked" } as const;

const decode = (value: string | undefined) => {
  try {
    return decodeURIComponent(value ?? "");
  } catch {
    return "";
  }
};

/**
 * The title, description and canonical address of the public pages people share: the landing page,
 * each course page, the practitioner directory and each certificate's verify page. Null for any
 * other page (it keeps the shell's generic tags and sets its own in the browser).
 */
export async function pageMetaFor(pathname: string, sources: MetaSources): Promise<PageMeta | null> {
  const match = matchClientRoute(pathname);
  if (!match) return null;
  const canonical = (path: string) => `${sources.appUrl}${path}`;
  switch (match.name) {
    case "home":
      return {
        title: `${BRAND_NAME}: Wellness Coach Courses with a Certificate of Completion`,
        description:
          "Self-paced courses for wellness and holistic-health coaches, each with a Certificate of Completion: nutrition, functional nutrition, integrative health and practice business skills.",
        canonical: canonical("/"),
        type: "website",
      };
    case "practitioners":
      return {
        title: `Find a coach who holds our Certificate of Completion | ${BRAND_NAME}`,
        description: `Coaches who hold a valid ${BRAND_NAME} Certificate of Completion, by course and region.`,
        canonical: canonical("/practitioners"),
        type: "website",
      };
    case "course": {
      const course = (await sources.catalogue().catch(() => null))?.byId.get(decode(match.params.courseId));
      if (!course) return null;
      return {
        title: course.seo.title,
        description: course.seo.description,
        canonical: canonical(`/course/${encodeURIComponent(course.card.id)}`),
        type: "website",
      };
    }
    case "verify": {
      const id = decode(match.params.certificateId);
      const certificate = id ? await sources.certificate(id).catch(() => null) : null;
      if (!certificate) return null;
      const status =
        certificate.status === "valid"
          ? `Valid until ${formatLongDate(certificate.expiresAt)}`
          : STATUS_WORDS[certificate.status];
      return {
        title: `${certificate.holderName}: ${certificate.courseTitle} certificate | ${BRAND_NAME}`,
        description: `${certificate.holderName} completed ${certificate.courseTitle} at ${BRAND_NAME}. Certificate ${id}. Status: ${status}.`,
        canonical: canonical(`/verify/${encodeURIComponent(id)}`),
        type: "article",
      };
    }
    default:
      return null;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The app shell (index.html) with the page's own title, description, canonical URL, Open Graph and Twitter tags. */
export function withPageMeta(shell: string, meta: PageMeta | null): string {
  if (!meta) return shell;
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const url = escapeHtml(meta.canonical);
  const tags = [
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="${meta.type}" />`,
    `<meta property="og:site_name" content="${escapeHtml(BRAND_NAME)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ].join("\n    ");
  return shell
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${title}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${description}" />`,
    )
    .replace("</head>", () => `    ${tags}\n  </head>`);
}
