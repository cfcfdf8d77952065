import { z } from "zod";
import { singleLineName } from "./text.ts";

/** Learners' questions on lessons (docs/decisions/0056): the shapes of every questions route. */

export const QUESTION_TITLE_MAX = 150;
export const POST_BODY_MAX = 5000;
export const QUESTIONS_PAGE_SIZE = 20;

export const questionTitleSchema = singleLineName("Title", 8, QUESTION_TITLE_MAX);
/** Markdown (paragraphs, lists, bold, italic, links, code); the server renders and sanitises it. */
export const postBodySchema = z
  .string({ error: "Write your text" })
  .trim()
  .min(1, "Write your text")
  .max(POST_BODY_MAX, `Text is at most ${POST_BODY_MAX} characters`);

export const newQuestionSchema = z.strictObject({ title: questionTitleSchema, body: postBodySchema });
export type NewQuestion = z.input<typeof newQuestionSchema>;
export const questionEditSchema = z.strictObject({
  title: questionTitleSchema.optional(),
  body: postBodySchema.optional(),
});
export const newAnswerSchema = z.strictObject({ body: postBodySchema });
export type NewAnswer = z.input<typeof newAnswerSchema>;
export const previewInputSchema = z.strictObject({ body: z.string().max(POST_BODY_MAX) });
export const previewSchema = z.object({ html: z.string(), hasLinks: z.boolean() });

export const REPORT_REASONS = ["spam", "abuse", "off-topic", "unsafe-advice", "other"] as const;
export const reportInputSchema = z.strictObject({
  reason: z.enum(REPORT_REASONS, { error: "Choose a reason" }),
  note: z.string().trim().max(500).optional(),
});
export type ReportInput = z.input<typeof reportInputSchema>;

export const postingInputSchema = z.strictObject({
  suspended: z.boolean(),
  reason: z.string().trim().min(1, "Say why").max(500),
});

const id = z.string().min(1).max(100);
export const questionParamsSchema = z.strictObject({ questionId: id });
export const answerParamsSchema = z.strictObject({ answerId: id });
export const postParamsSchema = z.strictObject({ postId: id });
// `:id`, as the other /api/admin/learners/:id/... routes name it (Fastify keeps one name per path segment).
export const learnerParamsSchema = z.strictObject({ id });

export const questionsPageQuerySchema = z.strictObject({
  /** The `nextCursor` of the page before. */
  cursor: z.string().max(200).optional(),
});
export const courseQuestionsQuerySchema = z.strictObject({
  search: z.string().trim().min(1, "Search for something").max(200),
  lessonId: id.optional(),
});
export const staffQueueQuerySchema = z.strictObject({ status: z.literal("unanswered") });

/** Who wrote a post as others see it: first name and last initial, and the staff badge if any. */
export const postAuthorSchema = z.object({
  name: z.string(),
  badge: z.enum(["instructor", "assessor", "admin"]).nullable(),
});
/** A post's state: held for moderation and hidden posts are shown to their author (and admins) only. */
export const postStateSchema = z.enum(["visible", "held", "hidden"]);

export const questionSummarySchema = z.object({
  id: z.string(),
  courseId: z.string(),
  lessonId: z.string(),
  title: z.string(),
  author: postAuthorSchema,
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  state: postStateSchema,
  answerCount: z.number().int(),
  upvotes: z.number().int(),
  upvoted: z.boolean(),
  answered: z.boolean(),
  mine: z.boolean(),
});
export type QuestionSummary = z.infer<typeof questionSummarySchema>;

export const lessonQuestionsSchema = z.object({
  items: z.array(questionSummarySchema),
  nextCursor: z.string().nullable(),
  /** Whether the reader may ask and answer here (enrolled or staff, not suspended). */
  canPost: z.boolean(),
  /** Why not, when signed in: not enrolled, or suspended from posting. */
  postingRefusal: z.string().nullable(),
});
export type LessonQuestions = z.infer<typeof lessonQuestionsSchema>;

export const answerSchema = z.object({
  id: z.string(),
  html: z.string(),
  body: z.string().nullable(),
  author: postAuthorSchema,
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  state: postStateSchema,
  accepted: z.boolean(),
  mine: z.boolean(),
});
export type Answer = z.infer<typeof answerSchema>;

export const questionDetailSchema = questionSummarySchema.extend({
  html: z.string(),
  /** The Markdown source, for its author's edit form; null for everyone else. */
  body: z.string().nullable(),
  answers: z.array(answerSchema),
  acceptedAnswerId: z.string().nullable(),
  following: z.boolean(),
  canPost: z.boolean(),
  canAccept: z.boolean(),
  canPromote: z.boolean(),
  promoted: z.boolean(),
});
export type QuestionDetail = z.infer<typeof questionDetailSchema>;

export const questionSearchSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      lessonId: z.string(),
      lessonTitle: z.string(),
      title: z.string(),
      answerCount: z.number().int(),
      answered: z.boolean(),
      createdAt: z.string(),
    }),
  ),
});
export type QuestionSearch = z.infer<typeof questionSearchSchema>;

export const commonQuestionsSchema = z.object({
  items: z.array(
    z.object({ questionId: z.string(), title: z.string(), questionHtml: z.string(), answerHtml: z.string() }),
  ),
});
export type CommonQuestions = z.infer<typeof commonQuestionsSchema>;

export const staffQueueSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
      lessonId: z.string(),
      lessonTitle: z.string(),
      title: z.string(),
      author: postAuthorSchema,
      createdAt: z.string(),
      waitingSeconds: z.number().int(),
    }),
  ),
});
export type StaffQueue = z.infer<typeof staffQueueSchema>;

export const moderationQueueSchema = z.object({
  items: z.array(
    z.object({
      postId: z.string(),
      questionId: z.string(),
      kind: z.enum(["question", "answer"]),
      courseId: z.string(),
      title: z.string(),
      html: z.string(),
      state: postStateSchema,
      author: postAuthorSchema,
      authorId: z.string().nullable(),
      createdAt: z.string(),
      reports: z.array(
        z.object({ reason: z.enum(REPORT_REASONS), note: z.string().nullable(), createdAt: z.string() }),
      ),
    }),
  ),
});
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

export const postStateResponseSchema = z.object({ postId: z.string(), state: postStateSchema });
export const postingStateSchema = z.object({ userId: z.string(), suspended: z.boolean() });
export const okSchema = z.object({ ok: z.literal(true) });
export const followStateSchema = z.object({ following: z.boolean() });
export const upvoteStateSchema = z.object({ upvoted: z.boolean(), upvotes: z.number().int() });

export const notificationsSchema = z.object({
  unread: z.number().int(),
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["answer", "accepted"]),
      questionId: z.string(),
      courseId: z.string(),
      lessonId: z.string(),
      questionTitle: z.string(),
      createdAt: z.string(),
      read: z.boolean(),
    }),
  ),
});
export type Notifications = z.infer<typeof notificationsSchema>;

export const questionUnsubscribeQuerySchema = z.strictObject({ token: z.string().min(1).max(500) });
export const questionUnsubscribeResponseSchema = z.object({ unsubscribed: z.literal(true), message: z.string() });
export const promotedStateSchema = z.object({ promoted: z.boolean() });
