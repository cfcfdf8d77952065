import { z } from "zod";
import { levelSchema } from "./courses.ts";

/**
 * course.json and module.json as an import reads them (server/content/content-files.ts), shared so the
 * studio's forms check what the server will (docs/decisions/0055, 0060).
 */
const nonEmpty = z.string().trim().min(1);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-20");

export const courseFileSchema = z.strictObject({
  title: nonEmpty.max(200),
  description: nonEmpty.max(2000),
  level: levelSchema,
  price: z.number().int().min(0).max(10_000_00),
  duration: nonEmpty.max(50),
  gradient: z.string().regex(/^[a-z0-9\- ]+$/, "must be Tailwind class names"),
  comingSoon: z.boolean(),
  position: z.number().int().min(0).optional(),
  marketplaceUrl: z.url({ protocol: /^https$/ }).optional(),
  learningOutcomes: z.array(nonEmpty).min(1),
  seo: z.strictObject({ title: nonEmpty, description: nonEmpty, keywords: z.array(nonEmpty).min(1) }),
  assessment: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(100).optional(),
      cooldownHours: z
        .number()
        .min(0)
        .max(24 * 30)
        .optional(),
    })
    .optional(),
  studyHours: z.number().min(0).max(1000).optional(),
  /** CE hours only with the body that approved them and its approval or provider number (decision 0052). */
  continuingEducation: z
    .strictObject({
      hours: z.number().positive().max(1000),
      approvedBy: nonEmpty.max(200),
      approvalNumber: nonEmpty.max(100),
    })
    .optional(),
  lastReviewed: isoDate.optional(),
  reviewerRole: nonEmpty.max(200).optional(),
  titleNotice: nonEmpty.max(2000).optional(),
});

export const moduleFileSchema = z.strictObject({ title: nonEmpty.max(200), description: z.string().trim().max(2000) });
