import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import type { PublicCertificate } from "./page-meta.ts";

/** Everything a share image draws (decision 0067); the renderer is given nothing else. */
export interface ShareCard {
  /** The gradient's two colours, as hex. */
  background: [string, string];
  eyebrow: string;
  title: string;
  lines: string[];
  footer: string;
  badge: { text: string; tone: PublicCertificate["status"] } | null;
}

/** Bumped when the drawing changes, so caches holding an older picture ask again. */
const DESIGN = "1";
const BRAND_GRADIENT: [string, string] = ["#0f766e", "#134e4a"];

/**
 * Tailwind's palette (its theme.css, the one the app's course cards are drawn with) as hex: the
 * course files name their gradient by Tailwind classes. Without the package, the brand's colours.
 */
let palette: Map<string, string> | null = null;
function tailwindPalette() {
  if (palette) return palette;
  palette = new Map();
  try {
    const css = readFileSync(createRequire(import.meta.url).resolve("tailwindcss/theme.css"), "utf8");
    for (const [, name = "", l = "", c = "", h = ""] of css.matchAll(
      /--color-([a-z]+-\d+):\s*oklch\(([\d.]+)% ([\d.]+) ([\d.]+)\)/g,
    ))
      palette.set(name, oklchToHex(Number(l) / 100, Number(c), Number(h)));
  } catch {
    // Left empty: every course gets the brand gradient.
  }
  return palette;
}

function oklchToHex(lightness: number, chroma: number, hue: number) {
  const a = chroma * Math.cos((hue * Math.PI) / 180);
  const b = chroma * Math.sin((hue * Math.PI) / 180);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return `#${linear
    .map((x) => {
      const v = x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
      return Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, "0");
    })
    .join("")}`;
}

/** `from-sky-500 to-blue-700` as two hex colours. */
export function gradientColours(classes: string): [string, string] {
  const colours = tailwindPalette();
  const stop = (prefix: string) => {
    const name = classes
      .split(/\s+/)
      .find((c) => c.startsWith(prefix))
      ?.slice(prefix.length);
    return name ? colours.get(name) : undefined;
  };
  const from = stop("from-");
  const to = stop("to-") ?? stop("via-");
  return from && to ? [from, to] : BRAND_GRADIENT;
}

const host = (appUrl: string) => new URL(appUrl).host;

export const academyCard = (appUrl: string): ShareCard => ({
  background: BRAND_GRADIENT,
  eyebrow: BRAND_NAME,
  title: "Wellness coach courses with a Certificate of Completion",
  lines: ["Nutrition, functional nutrition, integrative health and practice business skills."],
  footer: host(appUrl),
  badge: null,
});

export const courseCard = (appUrl: string, course: CatalogueCourse): ShareCard => ({
  background: gradientColours(course.card.gradient),
  eyebrow: BRAND_NAME,
  title: course.card.title,
  lines: [`${course.card.level} · ${course.card.moduleCount} modules · Certificate of Completion`],
  footer: host(appUrl),
  badge: null,
});

const STATUS_BADGE = { valid: "Valid", expired: "Expired", revoked: "Revoked" } as const;

/** A certificate as its verify page shows it: the holder's name, the course and the status, never an e-mail. */
export const certificateCard = (appUrl: string, certificateId: string, certificate: PublicCertificate): ShareCard => ({
  background: BRAND_GRADIENT,
  eyebrow: `${BRAND_NAME} · Certificate of Completion`,
  title: certificate.holderName,
  lines: [certificate.courseTitle],
  footer: `${host(appUrl)}/verify/${certificateId}`,
  badge: {
    text:
      certificate.status === "valid"
        ? `Valid until ${formatLongDate(certificate.expiresAt)}`
        : STATUS_BADGE[certificate.status],
    tone: certificate.status,
  },
});

/**
 * What `?v=` and the ETag carry: the design, the version it was drawn for (a course's published
 * version) and a digest of the card itself, so any change to what is drawn (a revocation, an expiry,
 * a renamed holder) gives a new address.
 */
export const shareCardKey = (card: ShareCard, version?: number) => {
  const digest = createHash("sha256").update(JSON.stringify(card)).digest("base64url").slice(0, 12);
  return [DESIGN, version, digest].filter((part) => part !== undefined).join(".");
};
