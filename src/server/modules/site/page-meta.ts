import { matchClientRoute } from "#shared/client-routes.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { SHARE_IMAGE_SIZE } from "#shared/share-image-routes.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { academyImage, certificateImage, courseImage, type ShareImage } from "./share-images.ts";

/** What a shared link should say about its page, before any script runs. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute, without query string. */
  canonical: string;
  type: "website" | "article";
  /** The page's share image (decision 0067); none for the pages nobody shares (sign-in, terms, privacy). */
  image?: ShareImage;
  /** A course's own keywords (the spec: set per course slug). */
  keywords?: string[];
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
 * The title, description and canonical address of the public pages: the landing page, each course
 * page and its preview lesson, the practitioner directory, each certificate's verify page, sign-in,
 * terms and privacy; the pages people share carry a share image too. Null for any other page (it
 * keeps the shell's generic tags and sets its own in the browser). Titles and descriptions are the
 * ones the pages set once hydrated, except where the server knows more (a course, a certificate).
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
        image: academyImage(sources.appUrl),
      };
    case "practitioners":
      return {
        title: `Find a coach who holds our Certificate of Completion | ${BRAND_NAME}`,
        description: `Coaches who hold a valid ${BRAND_NAME} Certificate of Completion, by course and region.`,
        canonical: canonical("/practitioners"),
        type: "website",
        image: academyImage(sources.appUrl),
      };
    case "login":
      return {
        title: `Sign In | ${BRAND_NAME}`,
        description: `Sign in or create your ${BRAND_NAME} account.`,
        canonical: canonical("/login"),
        type: "website",
      };
    case "terms":
    case "privacy": {
      const title = match.name === "terms" ? "Terms of Service" : "Privacy Policy";
      return {
        title: `${title} | ${BRAND_NAME}`,
        description: `The ${title} of ${BRAND_NAME}.`,
        canonical: canonical(`/${match.name}`),
        type: "website",
      };
    }
    case "course": {
      const course = (await sources.catalogue().catch(() => null))?.byId.get(decode(match.params.courseId));
      if (!course) return null;
      return {
        title: course.seo.title,
        description: course.seo.description,
        canonical: canonical(`/course/${encodeURIComponent(course.card.id)}`),
        type: "website",
        image: courseImage(sources.appUrl, course),
        keywords: course.seo.keywords,
      };
    }
    case "lesson": {
      // The preview lesson only (the first of the first module): any other is not a visitor's to read.
      const course = (await sources.catalogue().catch(() => null))?.byId.get(decode(match.params.courseId));
      const lesson = course?.modules[0]?.lessons[0];
      if (!course || !lesson || lesson.id !== decode(match.params.lessonId)) return null;
      return {
        title: `${lesson.title} | ${BRAND_NAME}`,
        description: `${lesson.title}: a lesson of ${course.card.title} at ${BRAND_NAME}.`,
        canonical: canonical(`/course/${encodeURIComponent(course.card.id)}/lesson/${encodeURIComponent(lesson.id)}`),
        type: "article",
        image: courseImage(sources.appUrl, course),
        keywords: course.seo.keywords,
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
        image: certificateImage(sources.appUrl, id, certificate),
      };
    }
    default:
      return null;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The app shell (index.html) with the page's own title, description, keywords, canonical URL, Open
 * Graph and Twitter tags, and its share image.
 */
export function withPageMeta(shell: string, meta: PageMeta | null): string {
  if (!meta) return shell;
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const url = escapeHtml(meta.canonical);
  const image = meta.image
    ? [
        `<meta property="og:image" content="${escapeHtml(meta.image.url)}" />`,
        `<meta property="og:image:type" content="image/png" />`,
        `<meta property="og:image:width" content="${SHARE_IMAGE_SIZE.width}" />`,
        `<meta property="og:image:height" content="${SHARE_IMAGE_SIZE.height}" />`,
        `<meta property="og:image:alt" content="${escapeHtml(meta.image.alt)}" />`,
        `<meta name="twitter:image" content="${escapeHtml(meta.image.url)}" />`,
        `<meta name="twitter:image:alt" content="${escapeHtml(meta.image.alt)}" />`,
      ]
    : [];
  const tags = [
    ...(meta.keywords?.length ? [`<meta name="keywords" content="${escapeHtml(meta.keywords.join(", "))}" />`] : []),
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="${meta.type}" />`,
    `<meta property="og:site_name" content="${escapeHtml(BRAND_NAME)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    ...image,
    `<meta name="twitter:card" content="${meta.image ? "summary_large_image" : "summary"}" />`,
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
