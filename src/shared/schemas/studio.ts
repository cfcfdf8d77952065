import { z } from "zod";
import { slugSchema } from "./common.ts";
import { courseFileSchema } from "./course-file.ts";

/**
 * A course as one document (docs/decisions/0055): the content of its files, field for field. Each
 * `*File` object holds what the file of that name holds (course.json, module.json, a lesson's front
 * matter, quiz.json, exam.json, practical.md's front matter); the server checks them with the same
 * rules as an import.
 */
const fileObject = z.record(z.string(), z.unknown());
const body = z.string().max(500_000);

export const documentLessonSchema = z.strictObject({
  id: slugSchema,
  format: z.enum(["md", "html"]),
  meta: fileObject,
  body,
});
export const documentModuleSchema = z.strictObject({
  id: slugSchema,
  module: fileObject,
  lessons: z.array(documentLessonSchema).max(500),
  quiz: fileObject.nullable(),
});
export const documentMediaSchema = z.strictObject({
  name: z.string().min(1).max(200),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex"),
});
export const courseDocumentSchema = z.strictObject({
  course: fileObject,
  modules: z.array(documentModuleSchema).max(100),
  exam: fileObject.nullable(),
  practical: z
    .strictObject({
      meta: fileObject,
      body,
      /** practical-exemplars.yaml (docs/decisions/0053); null when the folder has none. */
      exemplars: fileObject.nullable().default(null),
    })
    .nullable(),
  media: z.array(documentMediaSchema).max(1000),
});
export type CourseDocument = z.infer<typeof courseDocumentSchema>;

export const versionKindSchema = z.enum(["major", "minor"]);
export type VersionKind = z.infer<typeof versionKindSchema>;

export const studioCourseParamsSchema = z.strictObject({ courseId: slugSchema });
export const studioVersionParamsSchema = z.strictObject({
  courseId: slugSchema,
  version: z.coerce.number().int().min(1).max(1_000_000),
});

export const studioCourseSchema = z.object({
  id: z.string(),
  title: z.string(),
  draftRevision: z.number().nullable(),
  publishedVersion: z.number().nullable(),
  updatedAt: z.string().nullable(),
});
export const studioCourseListSchema = z.array(studioCourseSchema);
/** GET /api/studio/course-slug?slug=: whether a new course may take this slug (checked as an author types it). */
export const slugCheckQuerySchema = z.strictObject({ slug: slugSchema });
export const slugCheckSchema = z.object({ slug: z.string(), available: z.boolean() });
/** GET /api/studio/instructors (admins): every account in the instructor role, to assign to courses. */
export const studioInstructorListSchema = z.array(
  z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
);
export const createStudioCourseSchema = z.strictObject({
  slug: slugSchema,
  title: z.string().trim().min(1).max(200),
});

export const draftSchema = z.object({
  courseId: z.string(),
  /** 0 while the course has no draft: the document is then its latest version's, and a PUT with baseRevision 0 starts the draft. */
  revision: z.number(),
  baseVersion: z.number().nullable(),
  updatedAt: z.string().nullable(),
  document: courseDocumentSchema,
  /** The checks the draft fails now (a publish refuses until there are none). */
  problems: z.array(z.string()),
});
export type Draft = z.infer<typeof draftSchema>;
export const putDraftSchema = z.strictObject({
  baseRevision: z.number().int().min(0),
  document: courseDocumentSchema,
});
/** PUT .../draft/course: the course's settings (course.json) alone, on the draft at `baseRevision` (docs/decisions/0060). */
export const putCourseSettingsSchema = z.strictObject({
  baseRevision: z.number().int().min(0),
  course: courseFileSchema,
});
export type CourseFile = z.infer<typeof courseFileSchema>;

const outlineTitle = z.string().trim().min(1, "Give it a title.").max(200);
export const outlineLessonSchema = z.strictObject({ id: slugSchema, title: outlineTitle });
export const outlineModuleSchema = z.strictObject({
  id: slugSchema,
  title: outlineTitle,
  lessons: z.array(outlineLessonSchema).max(500),
});
export type OutlineModule = z.infer<typeof outlineModuleSchema>;
/**
 * PUT .../draft/outline: the modules and lessons in order, by id and title only (docs/decisions/0060).
 * A lesson keeps its text and front matter wherever it moves; a new id starts an empty lesson or
 * module; an id left out is removed. Ids are unique among modules and among lessons.
 */
export const putOutlineSchema = z
  .strictObject({ baseRevision: z.number().int().min(0), modules: z.array(outlineModuleSchema).max(100) })
  .superRefine((outline, ctx) => {
    const seen = (ids: string[], what: string) => {
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      if (repeated)
        ctx.addIssue({ code: "custom", message: `Two ${what} have the id '${repeated}'.`, path: ["modules"] });
    };
    seen(
      outline.modules.map((m) => m.id),
      "modules",
    );
    seen(
      outline.modules.flatMap((m) => m.lessons.map((l) => l.id)),
      "lessons",
    );
  });
export type PutOutline = z.infer<typeof putOutlineSchema>;

/** 409: a stale draft write (with the draft as it is now, so the author sees what changed), or a refused publish. */
export const studioConflictSchema = z.object({ message: z.string(), current: draftSchema.optional() });

export const publishSchema = z.strictObject({
  kind: versionKindSchema,
  note: z.string().trim().min(1).max(2000),
  baseRevision: z.number().int().min(0),
});
/** What a publish changes against the version before it, by stable id. */
export const versionChangesSchema = z.object({
  lessonsAdded: z.array(z.string()),
  lessonsRemoved: z.array(z.string()),
  /** Modules whose lessons, quiz questions, keys or draw changed (their quiz pass does not carry over). */
  assessmentsChanged: z.array(z.string()),
  examChanged: z.boolean(),
  practicalChanged: z.boolean(),
});
export type VersionChanges = z.infer<typeof versionChangesSchema>;
export const versionSummarySchema = z.object({
  version: z.number(),
  line: z.number(),
  kind: versionKindSchema,
  note: z.string(),
  publishedAt: z.string(),
  publishedBy: z.string().nullable(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;
/** The versions page's rows: each version with its author's name and e-mail (null for an import). */
export const versionListSchema = z.array(versionSummarySchema.extend({ author: z.string().nullable() }));
export const versionDetailSchema = versionSummarySchema.extend({ document: courseDocumentSchema.nullable() });
export const publishResultSchema = versionSummarySchema.extend({ changes: versionChangesSchema });
/** 422: every check the draft fails, each naming the file and field to fix. */
export const failedChecksSchema = z.object({ message: z.string(), problems: z.array(z.string()) });
export const republishSchema = z.strictObject({ note: z.string().trim().min(1).max(2000) }).nullish();

/**
 * PUT /api/studio/courses/{courseId}/versions/{version}/review: who reviewed that published version,
 * with what credential, and the day (decision 0058). The day is on or after the version's publication
 * and not in the future; the course and lesson pages show "Last reviewed" only for a recorded review.
 */
export const recordReviewSchema = z.strictObject({
  reviewerName: z.string().trim().min(2).max(120),
  credential: z.string().trim().min(2).max(160),
  reviewedOn: z.iso.date(),
});
export type RecordReview = z.infer<typeof recordReviewSchema>;
export const recordedReviewSchema = z.object({
  courseId: z.string(),
  version: z.number().int(),
  reviewerName: z.string(),
  credential: z.string(),
  reviewedOn: z.string(),
});
