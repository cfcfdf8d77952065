import { z } from "zod";

/** The practical skills assessment (docs/decisions/0026): brief, rubric, submissions and reviews. */

export const PRACTICAL_MAX_TEXT = 20_000;
export const PRACTICAL_MAX_FILES = 3;
/** Types checked by the file's content (magic bytes), never by its name. */
export const PRACTICAL_FILE_TYPES = [
  "application/pdf",
  "text/plain",
  "audio/mpeg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/wav",
  "audio/ogg",
  "audio/webm",
  "audio/flac",
] as const;

export const practicalLevelSchema = z.object({ points: z.number().int(), label: z.string(), descriptor: z.string() });
export const practicalCriterionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Below Competent fails whatever the pass rule's minimum level. */
  critical: z.boolean(),
  levels: z.array(practicalLevelSchema),
});
export const practicalRubricSchema = z.object({
  title: z.string(),
  briefHtml: z.string(),
  criteria: z.array(practicalCriterionSchema),
  /** Every criterion at least `minimumLevel` (a level's label), and `minPercent` of the points when set. */
  passRule: z.object({ minimumLevel: z.string(), minPercent: z.number().int().nullable() }),
  /** The rule in words, as the learner and the assessor read it. */
  passRuleText: z.string(),
  requiredForCertificate: z.boolean(),
  maxPoints: z.number().int(),
});
export type PracticalRubric = z.infer<typeof practicalRubricSchema>;

export const practicalFileInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

export const criterionScoreSchema = z.object({
  criterionId: z.string(),
  points: z.number().int(),
  comment: z.string(),
});

export const practicalReviewSchema = z.object({
  decision: z.enum(["pass", "resubmit"]),
  scores: z.array(criterionScoreSchema),
  feedback: z.string(),
  points: z.number().int(),
  maxPoints: z.number().int(),
  reviewedAt: z.string(),
});

export const submissionStatusSchema = z.enum(["submitted", "in-review", "passed", "resubmit"]);

export const practicalSubmissionSchema = z.object({
  /** The submission number assessors see instead of the learner's name. */
  number: z.number().int(),
  attempt: z.number().int(),
  status: submissionStatusSchema,
  submittedAt: z.string(),
  text: z.string(),
  files: z.array(practicalFileInfoSchema),
  review: practicalReviewSchema.nullable(),
});
export type PracticalSubmission = z.infer<typeof practicalSubmissionSchema>;

/**
 * The learner's view. `state`: locked (modules not complete), open (may submit), waiting (an assessor
 * has it or will), passed, resubmit (may submit again), closed (no submissions left; an admin may grant more).
 */
export const practicalStateSchema = z.enum(["locked", "open", "waiting", "passed", "resubmit", "closed"]);
export type PracticalState = z.infer<typeof practicalStateSchema>;

export const learnerPracticalSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  rubric: practicalRubricSchema,
  state: practicalStateSchema,
  submissionsLeft: z.number().int(),
  expectedReviewDays: z.number(),
  limits: z.object({
    maxTextChars: z.number().int(),
    maxFiles: z.number().int(),
    maxFileBytes: z.number().int(),
    fileTypes: z.array(z.string()),
  }),
  submissions: z.array(practicalSubmissionSchema),
});
export type LearnerPractical = z.infer<typeof learnerPracticalSchema>;

/** The text fields of a submission (multipart form); files travel as parts named `files`. */
export const practicalSubmissionFieldsSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .max(PRACTICAL_MAX_TEXT, `Your written work is at most ${PRACTICAL_MAX_TEXT.toLocaleString("en-US")} characters.`),
  consent: z.literal("yes", { error: "Confirm that you have anonymised any client before submitting." }),
});

export const practicalCourseParamsSchema = z.strictObject({ courseId: z.string().min(1).max(100) });
export const practicalFileParamsSchema = z.strictObject({ fileId: z.uuid() });
export const submissionParamsSchema = z.strictObject({
  number: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

export const reviewQueueItemSchema = z.object({
  number: z.number().int(),
  courseId: z.string(),
  courseTitle: z.string(),
  attempt: z.number().int(),
  submittedAt: z.string(),
  /** Whole hours since submission. */
  waitingHours: z.number().int(),
  status: z.enum(["submitted", "in-review"]),
  claimedByMe: z.boolean(),
});
export const reviewQueueSchema = z.object({
  items: z.array(reviewQueueItemSchema),
  expectedReviewDays: z.number(),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

/** What an assessor sees of a claimed submission: a number, never the learner's name. */
export const reviewSubmissionSchema = z.object({
  number: z.number().int(),
  courseId: z.string(),
  courseTitle: z.string(),
  attempt: z.number().int(),
  status: submissionStatusSchema,
  submittedAt: z.string(),
  claimedByMe: z.boolean(),
  text: z.string(),
  files: z.array(practicalFileInfoSchema),
  rubric: practicalRubricSchema,
  /** Reviews of this learner's earlier attempts at the same practical, oldest first. */
  earlierReviews: z.array(practicalReviewSchema.extend({ attempt: z.number().int() })),
  review: practicalReviewSchema.nullable(),
});
export type ReviewSubmission = z.infer<typeof reviewSubmissionSchema>;

export const reviewInputSchema = z.strictObject({
  scores: z
    .array(
      z.strictObject({
        criterionId: z.string().min(1).max(100),
        points: z.number().int().min(0).max(100),
        comment: z.string().trim().min(1, "Comment on every criterion.").max(2000),
      }),
    )
    .min(1)
    .max(12),
  feedback: z.string().trim().min(1, "Write overall feedback for the learner.").max(5000),
  decision: z.enum(["pass", "resubmit"]),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

export const practicalGrantInputSchema = z.strictObject({
  userId: z.string().min(1).max(100),
  courseId: z.string().min(1).max(100),
});
/**
 * An admin makes a learner an assessor or an instructor, or back (admins' own role changes only from
 * the command line).
 */
export const grantableRoleSchema = z.enum(["learner", "assessor", "instructor"]);
export type GrantableRole = z.infer<typeof grantableRoleSchema>;
export const roleInputSchema = z.strictObject({ role: grantableRoleSchema });
export const roleChangeSchema = z.object({ userId: z.string(), role: grantableRoleSchema });
