import { z } from "zod";
import { slugSchema } from "./common.ts";
import { documentLessonSchema, documentMediaSchema } from "./studio.ts";

/**
 * The studio's finer routes for the editors (docs/decisions/0060, "Editors"): one lesson saved at a
 * time, and the media files a lesson uses, so an autosave sends one lesson and not the course.
 */
export const studioLessonParamsSchema = z.strictObject({ courseId: slugSchema, lessonId: slugSchema });

/** A media file name the lesson blocks accept: lowercase words and one known extension. */
export const mediaFileNameSchema = z
  .string()
  .regex(
    /^[a-z0-9]+(?:[-.][a-z0-9]+)*\.(svg|png|jpg|jpeg|webp|mp4|webm|vtt)$/,
    "must be lowercase words with an image, video or .vtt extension",
  );

export const putLessonSchema = z.strictObject({
  /** The draft revision the author's copy of this lesson came from. */
  baseRevision: z.number().int().min(0),
  lesson: documentLessonSchema,
  /** Media files the lesson uses (uploaded with POST .../media), added to the draft's list. */
  media: z.array(documentMediaSchema).max(50).default([]),
});
export type PutLesson = z.input<typeof putLessonSchema>;

export const lessonSavedSchema = z.object({
  revision: z.number(),
  updatedAt: z.string().nullable(),
  lesson: documentLessonSchema,
  /** The checks the whole draft fails now. */
  problems: z.array(z.string()),
});
export type LessonSaved = z.infer<typeof lessonSavedSchema>;

/** 409: the draft moved on since the author's base revision; the lesson as it is now (null if it was removed). */
export const lessonConflictSchema = z.object({
  message: z.string(),
  revision: z.number(),
  lesson: documentLessonSchema.nullable(),
});
export type LessonConflict = z.infer<typeof lessonConflictSchema>;

export const uploadMediaSchema = z.strictObject({
  name: mediaFileNameSchema,
  /** The file's bytes in base64 (figures and captions are small; at most 4 MB). */
  data: z.base64().max(5_600_000),
});
export const mediaParamsSchema = z.strictObject({ courseId: slugSchema, name: mediaFileNameSchema });
export const mediaQuerySchema = z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** A draft lesson as its page would show it (the studio's preview; nothing is recorded). */
export const lessonPreviewSchema = z.object({ lessonId: z.string(), title: z.string(), html: z.string() });

/** The item statistics of a published version of the course (the latest when none is named), for its authors. */
export const studioItemStatisticsQuerySchema = z.strictObject({
  version: z.coerce.number().int().min(1).max(100_000).optional(),
});
