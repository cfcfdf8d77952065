import { z } from "zod";

export const levelSchema = z.enum(["Beginner", "Intermediate", "Advanced", "Bonus"]);
export type Level = z.infer<typeof levelSchema>;

export const courseCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  level: levelSchema,
  price: z.number().int(),
  duration: z.string(),
  /** Study hours the course declares (also on its Open Badges credential); null when it declares none. */
  studyHours: z.number().nullable(),
  moduleCount: z.number().int(),
  lessonCount: z.number().int(),
  gradient: z.string(),
  comingSoon: z.boolean(),
  marketplaceUrl: z.string().nullable(),
});
export type CourseCard = z.infer<typeof courseCardSchema>;

export const moduleStateSchema = z.enum(["locked", "in-progress", "complete"]);
export type ModuleState = z.infer<typeof moduleStateSchema>;

export const lessonSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  duration: z.string(),
  /** Whether the caller may open it (preview rules and module locks applied by the server). */
  accessible: z.boolean(),
  completed: z.boolean(),
});

export const quizSummarySchema = z.object({
  title: z.string(),
  /** Questions per attempt. */
  questionCount: z.number().int(),
  accessible: z.boolean(),
  bestScore: z.number().int().nullable(),
  passed: z.boolean(),
});

export const moduleSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  state: moduleStateSchema,
  lessons: z.array(lessonSummarySchema),
  quiz: quizSummarySchema.nullable(),
});
export type ModuleSummary = z.infer<typeof moduleSummarySchema>;

/**
 * A content review of one published course version (docs/decisions/0058): the reviewer by name and
 * credential, and the day (YYYY-MM-DD), never before the version was published.
 */
export const contentReviewSchema = z.object({
  reviewerName: z.string(),
  credential: z.string(),
  reviewedOn: z.string(),
});
export type ContentReview = z.infer<typeof contentReviewSchema>;

export const courseDetailSchema = courseCardSchema.extend({
  learningOutcomes: z.array(z.string()),
  seo: z.object({ title: z.string(), description: z.string(), keywords: z.array(z.string()) }),
  modules: z.array(moduleSummarySchema),
  enrolled: z.boolean(),
  /** The caller's progress percent; 0 for visitors and learners who are not enrolled. */
  percent: z.number().int(),
  allModulesComplete: z.boolean(),
  /** The cumulative final exam, when the course has one; it opens once every module is complete. */
  exam: quizSummarySchema
    .extend({
      timeLimitMinutes: z.number().int().nullable(),
      /** The reader's own limit: `timeLimitMinutes` with their extra time (an admin's accommodation); null when untimed. */
      yourTimeLimitMinutes: z.number().nullable(),
    })
    .nullable(),
  /**
   * The practical skills assessment, when the course has one: it opens once every module is complete,
   * and an assessor reviews it (the learner's page: GET /api/practical/{courseId}).
   */
  practical: z
    .object({
      title: z.string(),
      requiredForCertificate: z.boolean(),
      accessible: z.boolean(),
      passed: z.boolean(),
    })
    .nullable(),
  /** Every lesson completed, every quiz and the final exam passed (and a required practical): the certificate can be issued. */
  courseComplete: z.boolean(),
  /** What is still missing for completion, in words (empty when complete). */
  missing: z.array(z.string()),
  isCompleted: z.boolean(),
  /** Who reviewed the version shown, with what credential and when; null until one is recorded (decision 0058). */
  review: contentReviewSchema.nullable(),
  /** Plain words on protected titles and what graduates may call themselves. */
  titleNotice: z.string().nullable(),
  /** The published version the page shows (docs/decisions/0055). */
  version: z.number().int(),
  /** The latest publish after the first: its date and its author's change note ("Updated on {date}: {note}"). */
  update: z.object({ publishedAt: z.string(), note: z.string() }).nullable(),
  /** The course's latest published version: greater than `version` when the learner is on an older line. */
  latestVersion: z.number().int(),
  /** The versions published after the one shown, oldest first, with their change notes (empty on the latest). */
  newer: z.array(z.object({ version: z.number().int(), publishedAt: z.string(), note: z.string() })),
  /**
   * What "Move to the new version" would do for this learner (null unless enrolled on an older version):
   * what carries over, what they will redo, and the lessons that are new to them.
   */
  move: z
    .object({
      keeps: z.array(z.string()),
      redo: z.array(z.string()),
      newLessons: z.array(z.string()),
    })
    .nullable(),
});
export type CourseDetail = z.infer<typeof courseDetailSchema>;

/** POST /api/courses/{courseId}/move-to-latest: the version the learner is on now, and whether this call moved them. */
export const moveToLatestSchema = z.object({
  version: z.number().int(),
  latestVersion: z.number().int(),
  moved: z.boolean(),
});
export type MoveToLatest = z.infer<typeof moveToLatestSchema>;

export const lessonSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  moduleId: z.string(),
  moduleTitle: z.string(),
  /** 1-based number of the lesson within its module ('Lesson N'). */
  numberInModule: z.number().int(),
  /** 0-based position across the whole course. */
  position: z.number().int(),
  totalLessons: z.number().int(),
  title: z.string(),
  duration: z.string(),
  html: z.string(),
  previousLessonId: z.string().nullable(),
  nextLessonId: z.string().nullable(),
  completed: z.boolean(),
  /** The review of the course version this lesson belongs to; null until one is recorded (decision 0058). */
  review: contentReviewSchema.nullable(),
});
export type Lesson = z.infer<typeof lessonSchema>;

export const courseParamsSchema = z.strictObject({ courseId: z.string().min(1).max(100) });
export const lessonParamsSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  lessonId: z.string().min(1).max(100),
});

export const enrollmentSchema = z.object({ courseId: z.string(), createdAt: z.string() });
export const enrollmentListSchema = z.array(enrollmentSchema);
export const enrollmentStatusSchema = z.object({ enrolled: z.boolean() });
