import { z } from "zod";
import { courseFileSchema } from "#shared/schemas/course-file.ts";
import type { CourseCard } from "#shared/schemas/courses.ts";
import type { CourseFile } from "#shared/schemas/studio.ts";

/** The catalogue's card colours (their classes are in the stylesheet because the shipped courses use them). */
export const GRADIENTS = [
  { value: "from-sky-500 to-blue-700", label: "Sky to blue" },
  { value: "from-emerald-500 to-green-700", label: "Emerald to green" },
  { value: "from-violet-500 to-purple-700", label: "Violet to purple" },
  { value: "from-rose-500 to-red-700", label: "Rose to red" },
  { value: "from-orange-400 to-orange-600", label: "Orange" },
  { value: "from-amber-400 to-yellow-600", label: "Amber to yellow" },
] as const;

const file = courseFileSchema.shape;
const MAX_DOLLARS = 10_000;

/**
 * The settings form: course.json's own rules (the shared schema's fields), with the price in dollars
 * and the lists as rows; `toCourseFile` gives the course.json the server checks again.
 */
export const settingsFormSchema = z.object({
  title: file.title,
  description: file.description,
  level: file.level,
  price: z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, "Enter the price in dollars, like 49 or 49.99.")
    .refine((v) => Number(v) <= MAX_DOLLARS, `The price can be at most $${MAX_DOLLARS.toLocaleString("en-US")}.`),
  duration: file.duration,
  studyHours: z
    .string()
    .trim()
    .regex(/^(\d{1,4}(\.\d{1,2})?)?$/, "Enter study hours as a number, like 12 or 12.5, or leave it empty."),
  gradient: file.gradient,
  comingSoon: z.boolean(),
  marketplaceUrl: z.union([
    z.literal(""),
    z.url({ protocol: /^https$/, error: "Enter an https:// address, or leave it empty." }),
  ]),
  learningOutcomes: z
    .array(z.object({ text: z.string().trim().min(1, "Write the outcome, or remove it.").max(500) }))
    .min(1, "Add at least one learning outcome."),
  seo: z.object({
    title: z.string().trim().min(1, "Write a search title.").max(200),
    description: z.string().trim().min(1, "Write a search description.").max(500),
    keywords: z
      .string()
      .refine((v) => keywordsOf(v).length > 0, "Write at least one keyword (separate them with commas)."),
  }),
});
export type SettingsForm = z.input<typeof settingsFormSchema>;
type SettingsValues = z.output<typeof settingsFormSchema>;

const keywordsOf = (v: string) =>
  v
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);

const dollars = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));
const text = (v: unknown) => (typeof v === "string" ? v : "");

/** The form's values from a draft's course.json (loose: a draft may be half-written). */
export function formOf(course: Record<string, unknown>): SettingsForm {
  const seo = (course.seo ?? {}) as Record<string, unknown>;
  return {
    title: text(course.title),
    description: text(course.description),
    level: (course.level as SettingsForm["level"]) ?? "Beginner",
    price: typeof course.price === "number" ? dollars(course.price) : "",
    duration: text(course.duration),
    studyHours: typeof course.studyHours === "number" ? String(course.studyHours) : "",
    gradient: text(course.gradient) || GRADIENTS[0].value,
    comingSoon: course.comingSoon === true,
    marketplaceUrl: text(course.marketplaceUrl),
    learningOutcomes: (Array.isArray(course.learningOutcomes) ? course.learningOutcomes : []).map((o) => ({
      text: text(o),
    })),
    seo: {
      title: text(seo.title),
      description: text(seo.description),
      keywords: (Array.isArray(seo.keywords) ? seo.keywords : []).map(text).join(", "),
    },
  };
}

/** course.json from the form, keeping the fields the form does not edit (position, CE credit, review...). */
export function toCourseFile(values: SettingsValues, before: Record<string, unknown>): CourseFile {
  const { marketplaceUrl: _url, studyHours: _hours, ...kept } = before;
  return {
    ...(kept as Partial<CourseFile>),
    title: values.title,
    description: values.description,
    level: values.level,
    price: Math.round(Number(values.price) * 100),
    duration: values.duration,
    gradient: values.gradient,
    comingSoon: values.comingSoon,
    learningOutcomes: values.learningOutcomes.map((o) => o.text),
    seo: { title: values.seo.title, description: values.seo.description, keywords: keywordsOf(values.seo.keywords) },
    ...(values.marketplaceUrl ? { marketplaceUrl: values.marketplaceUrl } : {}),
    ...(values.studyHours ? { studyHours: Number(values.studyHours) } : {}),
  };
}

/** The catalogue card the form's values would make, as learners will see it. */
export function cardOf(
  courseId: string,
  form: SettingsForm,
  counts: { moduleCount: number; lessonCount: number },
): CourseCard {
  const price = /^\d+(\.\d{1,2})?$/.test(form.price.trim()) ? Math.round(Number(form.price) * 100) : 0;
  const hours = Number(form.studyHours);
  return {
    id: courseId,
    title: form.title || "Untitled course",
    description: form.description,
    level: form.level,
    price,
    duration: form.duration,
    studyHours: form.studyHours && Number.isFinite(hours) ? hours : null,
    gradient: form.gradient,
    comingSoon: form.comingSoon,
    marketplaceUrl: form.marketplaceUrl || null,
    ...counts,
  };
}

/** Each setting that differs between two forms, by its label, for the author to compare. */
export function settingsDifferences(mine: SettingsForm, theirs: SettingsForm) {
  const shown = (f: SettingsForm) => ({
    Title: f.title,
    Description: f.description,
    Level: f.level,
    "Price (USD)": f.price,
    Duration: f.duration,
    "Study hours": f.studyHours,
    Colour: f.gradient,
    "Coming soon": f.comingSoon ? "Yes" : "No",
    "Marketplace URL": f.marketplaceUrl,
    "Learning outcomes": f.learningOutcomes.map((o) => o.text).join(" · "),
    "Search title": f.seo.title,
    "Search description": f.seo.description,
    Keywords: f.seo.keywords,
  });
  const a = shown(mine);
  const b = shown(theirs);
  return (Object.keys(a) as (keyof typeof a)[])
    .filter((label) => a[label] !== b[label])
    .map((label) => ({ label, mine: a[label], theirs: b[label] }));
}
