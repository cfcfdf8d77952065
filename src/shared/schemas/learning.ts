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
  courseId: z.string(),
  moduleId: z.string(),
  moduleTitle: z.string(),
  title: z.string(),
  questions: z.array(quizQuestionSchema),
  passMark: z.number().int(),
  /** The caller's earlier result, when they are enrolled and have one. */
  previous: quizScoreSchema.nullable(),
  /** Whether attempts are recorded (enrolled learners) or only graded (preview). */
  recorded: z.boolean(),
  nextModuleId: z.string().nullable(),
});
export type Quiz = z.infer<typeof quizSchema>;

export const quizSubmissionSchema = z.strictObject({
  answers: z.record(z.string().min(1).max(100), z.string().min(1).max(100)),
});

export const quizReviewItemSchema = z.object({
  questionId: z.string(),
  correct: z.boolean(),
  /** Only after a pass. */
  correctAnswer: z.string().optional(),
  explanation: z.string().optional(),
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
  review: z.array(quizReviewItemSchema),
});
export type QuizResult = z.infer<typeof quizResultSchema>;

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
