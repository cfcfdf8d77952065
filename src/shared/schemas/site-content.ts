import { z } from "zod";

const text = z.string().trim().min(1);
/** Plain words that qualify a claim, e.g. "figures from the practitioner app, 2026-11; not a promise of income". */
const qualifier = text.max(300).optional();

/** Where a figure comes from, and when it was true: shown beside it (decision 0029). */
const source = text.max(200).optional();
const asOf = z
  .string()
  .regex(/^\d{4}-\d{2}(-\d{2})?$/, "must be a date like 2026-11 or 2026-11-25")
  .optional();
/**
 * An earnings figure states typical realised earnings: whose earnings (`sample`, e.g. "median session
 * price of 140 practitioners' completed sessions") over which `period` (e.g. "June to November 2026").
 */
const sample = text.max(200).optional();
const period = text.max(100).optional();
const backing = { qualifier, source, asOf, sample, period };
export const figureSchema = z.strictObject({ value: text.max(40), label: text.max(120), ...backing });
export const claimSchema = z.strictObject({ text: text.max(300), ...backing });
export const testimonialSchema = z
  .strictObject({
    quote: text.max(1000),
    name: text.max(100),
    role: text.max(200),
    /** Placeholder text the owner has not replaced with a real graduate's words yet: shown with a "Sample" label. */
    sample: z.boolean().default(false),
    /** A real testimonial's graduate agreed to its use on this date (YYYY-MM-DD). */
    consentDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-25")
      .optional(),
    /** The course the graduate completed. */
    course: text.max(200).optional(),
  })
  .refine((t) => t.sample || (t.consentDate && t.course), {
    path: ["consentDate"],
    message: "a real testimonial (sample: false) needs the graduate's consentDate and the course they completed",
  });

/** content/site/landing.yaml */
export const landingContentSchema = z.strictObject({
  hero: z.strictObject({ eyebrow: text.max(120), title: text.max(200), text: text.max(1000), completeIn: claimSchema }),
  figures: z.array(figureSchema).max(8),
  practitioner: z.strictObject({
    title: text.max(200),
    text: text.max(1000),
    claims: z.array(claimSchema).max(10),
    note: text.max(500),
  }),
  disclaimer: z
    .strictObject({ title: text.max(120), text: text.max(2000) })
    // The page shows the title as the heading right above the text, so a text that opens with it reads twice.
    .refine((d) => !d.text.toLowerCase().startsWith(d.title.toLowerCase()), {
      path: ["text"],
      message: "starts with the title, which the page already shows as its heading",
    }),
});

/** content/site/testimonials.yaml */
export const testimonialsContentSchema = z.strictObject({ testimonials: z.array(testimonialSchema).max(12) });

/** content/site/practitioner-app.yaml: the practitioner app as the catalogue, certificate and registration pages present it. */
export const practitionerAppContentSchema = z.strictObject({
  /** Null: no banner (production leaves out one whose figures have no source and date). */
  banner: z.strictObject({ headline: text.max(200), text: text.max(500), ...backing }).nullable(),
  promo: z.strictObject({ title: text.max(200), claims: z.array(claimSchema).max(8), note: text.max(500) }),
  registration: z.strictObject({
    title: text.max(200),
    intro: text.max(1000),
    steps: z.array(text.max(500)).min(1).max(10),
    verified: z.array(text.max(500)).min(1).max(10),
    note: text.max(1000),
  }),
});

export const siteContentSchema = z.object({
  landing: landingContentSchema,
  testimonials: testimonialsContentSchema.shape.testimonials,
  practitionerApp: practitionerAppContentSchema,
});
export type SiteContent = z.infer<typeof siteContentSchema>;
export type Claim = z.infer<typeof claimSchema>;
export type Figure = z.infer<typeof figureSchema>;
