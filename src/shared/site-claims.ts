import type { Claim, SiteContent } from "./schemas/site-content.ts";

/**
 * Which landing claims need backing before production shows them (decision 0058): a count
 * ("2,000+", "1000+", "1,200 graduates") or an earnings figure (any dollar amount). "0%", "24/7" and
 * single-digit figures are neither.
 */
export type FigureKind = "count" | "earnings";

const EARNINGS = /\$\s?\d/;
const COUNT = /\b\d{1,3}(?:,\d{3})+\+?|\b\d{2,}\+|\b\d{3,}\s+[a-z]/i;

export function figureKind(text: string): FigureKind | null {
  if (EARNINGS.test(text)) return "earnings";
  if (COUNT.test(text)) return "count";
  return null;
}

type Backing = Pick<Claim, "source" | "asOf" | "sample" | "period">;

/**
 * Why production leaves a claim out, or null when it may be shown: a count needs its source and an
 * as-of date; an earnings figure also the sample and period of the typical realised earnings it states.
 */
export function unbackedReason(text: string, claim: Backing): string | null {
  const kind = figureKind(text);
  if (!kind) return null;
  const missing = [
    !claim.source && "a source",
    !claim.asOf && "an as-of date",
    kind === "earnings" && !claim.sample && "the sample of realised earnings",
    kind === "earnings" && !claim.period && "their period",
  ].filter(Boolean);
  return missing.length ? `${kind === "count" ? "a count" : "an earnings figure"} without ${missing.join(", ")}` : null;
}

const shown = (env: string) => (text: string, claim: Backing) => env !== "production" || !unbackedReason(text, claim);

/**
 * The site texts as a browser gets them: in production no sample testimonial and no count or
 * earnings figure without its backing (the rest of each list stays); elsewhere everything, so the
 * owner sees what is still to confirm (the note beside it says so).
 */
export function shownSiteContent(content: SiteContent, env: string): SiteContent {
  const ok = shown(env);
  const claims = (list: Claim[]) => list.filter((c) => ok(c.text, c));
  const { landing, practitionerApp } = content;
  const banner = practitionerApp.banner;
  return {
    landing: {
      ...landing,
      figures: landing.figures.filter((f) => ok(`${f.value} ${f.label}`, f)),
      practitioner: { ...landing.practitioner, claims: claims(landing.practitioner.claims) },
    },
    testimonials: env === "production" ? content.testimonials.filter((t) => !t.sample) : content.testimonials,
    practitionerApp: {
      ...practitionerApp,
      banner: banner && ok(`${banner.headline} ${banner.text}`, banner) ? banner : null,
      promo: { ...practitionerApp.promo, claims: claims(practitionerApp.promo.claims) },
    },
  };
}
