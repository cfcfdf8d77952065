import { z } from "zod";

export { ASSESSED_BY_TEXT, isRecording } from "../practical-evidence.ts";

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
  "video/mp4",
  "video/webm",
  "video/quicktime",
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
  /** 'recording': the submission must carry an audio or video recording of the session. */
  evidence: z.enum(["written", "recording"]),
  /** What an assessor of this practical must hold. */
  assessorRequirements: z.string(),
  /** What the learner does when a volunteer discloses a real red flag. */
  redFlagSteps: z.string(),
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
  redFlag: z.literal("yes", {
    error:
      "Confirm that no real red flag came up in this session, or that you stopped and are submitting nothing from it.",
  }),
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
  /** first: a first mark; second: a blind second mark; third: the deciding mark after a disagreement. */
  stage: z.enum(["first", "second", "third"]),
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
  stage: z.enum(["first", "second", "third"]),
  /** The two marks that disagreed, for the deciding assessor only (a second mark is always blind). */
  marks: z.array(practicalReviewSchema.extend({ round: z.number().int() })),
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

/** An exemplar submission with its agreed scores and the rationale (docs/decisions/0053). */
export const practicalExemplarSchema = z.object({
  id: z.string(),
  band: z.enum(["fail", "borderline", "strong"]),
  text: z.string(),
  scores: z.array(z.object({ criterionId: z.string(), points: z.number().int() })),
  decision: z.enum(["pass", "resubmit"]),
  rationale: z.string(),
});
export type PracticalExemplar = z.infer<typeof practicalExemplarSchema>;

/** An assessor's qualifications; coaching training is needed for practicals that score a live conversation. */
export const assessorProfileInputSchema = z.strictObject({
  credential: z.string().trim().min(1, "Name your credential.").max(200),
  awardingBody: z.string().trim().min(1, "Name the body that awarded it.").max(200),
  credentialNumber: z.string().trim().min(1, "Give the credential's number.").max(100),
  coachingTraining: z.string().trim().max(500).nullable().default(null),
});
export type AssessorProfileInput = z.input<typeof assessorProfileInputSchema>;
export const assessorProfileSchema = z.object({
  credential: z.string(),
  awardingBody: z.string(),
  credentialNumber: z.string(),
  coachingTraining: z.string().nullable(),
  updatedAt: z.string(),
});
export type AssessorProfile = z.infer<typeof assessorProfileSchema>;

/** One exemplar's calibration result: the assessor's scores beside the agreed ones. */
export const calibrationResultSchema = z.object({
  scoredAt: z.string(),
  withinOne: z.boolean(),
  criteria: z.array(
    z.object({ criterionId: z.string(), mine: z.number().int(), agreed: z.number().int(), withinOne: z.boolean() }),
  ),
  decision: z.enum(["pass", "resubmit"]),
  rationale: z.string(),
  band: z.enum(["fail", "borderline", "strong"]),
});
export const calibrationCourseSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  practicalTitle: z.string(),
  assessorRequirements: z.string(),
  /** Every exemplar scored within one level on every criterion, under this rubric, within a year. */
  calibrated: z.boolean(),
  /** When the calibration runs out (a year after its oldest score), while calibrated. */
  calibratedUntil: z.string().nullable(),
  exemplars: z.array(
    z.object({ id: z.string(), number: z.number().int(), result: calibrationResultSchema.nullable() }),
  ),
});
export const calibrationOverviewSchema = z.object({
  profile: assessorProfileSchema.nullable(),
  courses: z.array(calibrationCourseSchema),
});
export type CalibrationOverview = z.infer<typeof calibrationOverviewSchema>;
export const calibrationParamsSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  exemplarId: z.string().min(1).max(100),
});
/** An exemplar as the assessor scores it: in the review page's shape, with the result once scored. */
export const calibrationExemplarSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  exemplarId: z.string(),
  number: z.number().int(),
  text: z.string(),
  rubric: practicalRubricSchema,
  result: calibrationResultSchema.nullable(),
  calibrated: z.boolean(),
});
export type CalibrationExemplar = z.infer<typeof calibrationExemplarSchema>;

/** Agreement between the two blind marks, per practical and assessor (docs/decisions/0053). */
export const agreementCriterionSchema = z.object({
  criterionId: z.string(),
  title: z.string(),
  /** Double-marked submissions where both marks scored it. */
  pairs: z.number().int(),
  /** Share of pairs at exactly the same level (0-1), null with no pairs. */
  exactAgreement: z.number().nullable(),
  /** Quadratic-weighted Cohen's kappa over the levels, null when undefined (no pairs, or no spread). */
  weightedKappa: z.number().nullable(),
});
export const agreementRowSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  assessorId: z.string(),
  assessorEmail: z.string(),
  /** Marks given (any round). */
  marks: z.number().int(),
  /** Of those, marks that passed (0-1). */
  sharePassed: z.number().nullable(),
  /** Median hours from claim to mark. */
  medianReviewHours: z.number().nullable(),
  /** Double-marked submissions this assessor marked. */
  pairs: z.number().int(),
  /** Share of pairs with the same decision. */
  decisionAgreement: z.number().nullable(),
  criteria: z.array(agreementCriterionSchema),
});
export const agreementReportSchema = z.object({
  doubleMarkShare: z.number(),
  rows: z.array(agreementRowSchema),
});
export type AgreementReport = z.infer<typeof agreementReportSchema>;
