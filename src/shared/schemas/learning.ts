import { z } from "zod";
import { PASS_MARK } from "../constants.ts";

export const quizScoreSchema = z.object({
  /** Latest attempt's score, in percent. */
  score: z.number().int(),
  passed: z.boolean(),
  attempts: z.number().int(),
  bestScore: z.number().int(),
});

export const progressSchema = z.object({
  id: z.string(),
  userId: z.string(),
  courseId: z.string(),
  currentModuleIndex: z.number().int(),
  currentLessonIndex: z.number().int(),
  completedLessons: z.array(z.string()),
  completedModules: z.array(z.string()),
  quizScores: z.record(z.string(), quizScoreSchema),
  isCompleted: z.boolean(),
  completedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  percent: z.number().int(),
});
export type Progress = z.infer<typeof progressSchema>;

export const completeCourseInputSchema = z.strictObject({
  isCompleted: z.literal(true),
  /** Accepted for compatibility with the spec's client; the server uses its own clock. */
  completedAt: z.string().max(40).optional(),
});

export const lessonCompletedSchema = z.object({ completed: z.literal(true), percent: z.number().int() });

export const examParamsSchema = z.strictObject({ courseId: z.string().min(1).max(100) });

export const quizParamsSchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  moduleId: z.string().min(1).max(100),
});

export const quizQuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
});

export const quizSchema = z.object({
  kind: z.enum(["quiz", "exam"]),
  courseId: z.string(),
  /** The module of a quiz; null for the final exam. */
  moduleId: z.string().nullable(),
  moduleTitle: z.string(),
  title: z.string(),
  /** This attempt: the questions the server drew, each with its options in the order drawn. */
  attemptId: z.string(),
  questions: z.array(quizQuestionSchema),
  startedAt: z.string(),
  /** Timed exams: when the time is up (the server accepts a submission a short grace period later). */
  deadlineAt: z.string().nullable(),
  timeLimitMinutes: z.number().nullable(),
  passMark: z.number().int(),
  /** Attempts the learner may still submit, this one included; null for preview attempts (not recorded). */
  attemptsLeft: z.number().int().nullable(),
  maxAttempts: z.number().int(),
  /** The caller's earlier result, when they are enrolled and have one. */
  previous: quizScoreSchema.nullable(),
  /** Whether attempts are recorded (enrolled learners) or only graded (preview). */
  recorded: z.boolean(),
  nextModuleId: z.string().nullable(),
});
export type Quiz = z.infer<typeof quizSchema>;

/**
 * The final exam's rules, read before Start: nothing is drawn and no clock starts. Shares its fields
 * with the attempt itself; the time limit is given as written and with the learner's own multiplier.
 */
export const examRulesSchema = quizSchema
  .pick({ courseId: true, title: true, timeLimitMinutes: true, passMark: true, maxAttempts: true, previous: true })
  .extend({
    questionCount: z.number().int(),
    /** The learner's accommodation (an admin sets it); 1 when none. */
    timeMultiplier: z.number(),
    /** This learner's time limit: `timeLimitMinutes` x `timeMultiplier`; null when untimed. */
    yourTimeLimitMinutes: z.number().nullable(),
    /** Attempts that may still be submitted, an attempt in progress included. */
    attemptsLeft: z.number().int(),
    /** When no attempt is left: when the next one opens. */
    nextAttemptAt: z.string().nullable(),
    /** An attempt already started (Start resumes it), with its deadline when timed. */
    inProgress: z.object({ deadlineAt: z.string().nullable() }).nullable(),
  });
export type ExamRules = z.infer<typeof examRulesSchema>;

export const quizSubmissionSchema = z.strictObject({
  answers: z.record(z.string().min(1).max(100), z.string().min(1).max(100)),
  /** The attempt being answered (required for preview attempts; the open attempt otherwise). */
  attemptId: z.string().min(1).max(4000).optional(),
});
export type QuizSubmission = z.input<typeof quizSubmissionSchema>;

/** After a pass only: every question with its correct answer and explanation. */
export const quizReviewItemSchema = z.object({
  questionId: z.string(),
  correct: z.boolean(),
  correctAnswer: z.string(),
  explanation: z.string(),
});

export const quizResultSchema = z.object({
  score: z.number().int(),
  correctCount: z.number().int(),
  incorrectCount: z.number().int(),
  total: z.number().int(),
  passed: z.boolean(),
  passMark: z.literal(PASS_MARK),
  recorded: z.boolean(),
  bestScore: z.number().int().nullable(),
  /** Empty after a fail: a failed attempt never says which questions were right or wrong. */
  review: z.array(quizReviewItemSchema),
  /** After a fail: the lessons behind the questions drawn. */
  lessonsToRevisit: z.array(z.object({ id: z.string(), title: z.string() })),
  attemptsLeft: z.number().int().nullable(),
  /** When no attempt is left: when the next one opens. */
  nextAttemptAt: z.string().nullable(),
});
export type QuizResult = z.infer<typeof quizResultSchema>;

/** The body of a 429 on a quiz or exam. */
export const attemptRefusedSchema = z.object({ message: z.string(), nextAttemptAt: z.string() });

export const myLearningCourseSchema = z.object({
  courseId: z.string(),
  title: z.string(),
  level: z.enum(["Beginner", "Intermediate", "Advanced", "Bonus"]),
  duration: z.string(),
  gradient: z.string(),
  percent: z.number().int(),
  lessonsDone: z.number().int(),
  lessonCount: z.number().int(),
  isCompleted: z.boolean(),
  completedAt: z.string().nullable(),
  enrolledAt: z.string(),
});
export type MyLearningCourse = z.infer<typeof myLearningCourseSchema>;
export const myLearningSchema = z.array(myLearningCourseSchema);
