import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { courseParamsSchema, lessonParamsSchema } from "#shared/schemas/courses.ts";
import {
  answerParamsSchema,
  commonQuestionsSchema,
  courseQuestionsQuerySchema,
  followStateSchema,
  learnerParamsSchema,
  lessonQuestionsSchema,
  moderationQueueSchema,
  newAnswerSchema,
  newQuestionSchema,
  notificationsSchema,
  okSchema,
  postingInputSchema,
  postingStateSchema,
  postParamsSchema,
  postStateResponseSchema,
  previewInputSchema,
  previewSchema,
  promotedStateSchema,
  questionDetailSchema,
  questionEditSchema,
  questionParamsSchema,
  questionSearchSchema,
  questionsPageQuerySchema,
  questionUnsubscribeQuerySchema,
  questionUnsubscribeResponseSchema,
  reportInputSchema,
  staffQueueQuerySchema,
  staffQueueSchema,
  upvoteStateSchema,
} from "#shared/schemas/questions.ts";
import { requireAdmin, requireUser } from "../../plugins/auth.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { CommonQuestionsCache, setPromoted } from "./common-questions.ts";
import { moderationQueue, reportPost, setPostingSuspension, setPostState } from "./moderation.service.ts";
import { renderPost } from "./post-markdown.ts";
import { readerOf, requireRead } from "./question-access.ts";
import { listNotifications, markNotificationsRead, unsubscribeFromQuestions } from "./question-notices.ts";
import {
  acceptAnswer,
  askQuestion,
  deleteAnswer,
  deleteQuestion,
  editAnswer,
  editQuestion,
  getQuestion,
  lessonQuestions,
  postAnswer,
  type QuestionsDeps,
  questionContext,
  searchCourseQuestions,
  setFollow,
  setUpvote,
  staffQueue,
} from "./questions.service.ts";

/** Learners' questions on lessons, their answers, follows, notices and moderation (decision 0056). */
export function questionsRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const { config, database, counters, invalidation } = app.deps;
    const db = database.db;
    const deps: QuestionsDeps = {
      db,
      engine: database.engine,
      config,
      counters,
      invalidation,
      catalogue,
    };
    const common = new CommonQuestionsCache(db, invalidation);
    app.addHook("onClose", async () => common.dispose());
    const lessonOf = async (courseId: string) => requireCourse(await catalogue.course(courseId));

    app.get(
      "/api/courses/:courseId/lessons/:lessonId/questions",
      {
        schema: {
          params: lessonParamsSchema,
          querystring: questionsPageQuerySchema,
          response: { 200: lessonQuestionsSchema },
        },
      },
      async (request, reply) => {
        const course = await lessonOf(request.params.courseId);
        const reader = await readerOf(db, await request.currentUser(), course.card.id);
        reply.header("cache-control", "private, no-cache");
        return lessonQuestions(deps, reader, course, request.params.lessonId, request.query.cursor);
      },
    );

    app.post(
      "/api/courses/:courseId/lessons/:lessonId/questions",
      { schema: { params: lessonParamsSchema, body: newQuestionSchema, response: { 200: questionDetailSchema } } },
      async (request) => {
        const course = await lessonOf(request.params.courseId);
        const reader = await readerOf(db, await requireUser(request), course.card.id);
        return askQuestion(deps, reader, course, request.params.lessonId, request.body);
      },
    );

    app.get(
      "/api/courses/:courseId/lessons/:lessonId/common-questions",
      { schema: { params: lessonParamsSchema, response: { 200: commonQuestionsSchema } } },
      async (request) => {
        const course = await lessonOf(request.params.courseId);
        const reader = await readerOf(db, await request.currentUser(), course.card.id);
        requireRead(reader, course, request.params.lessonId);
        return common.read(course.card.id, request.params.lessonId);
      },
    );

    app.get(
      "/api/courses/:courseId/questions",
      {
        schema: {
          params: courseParamsSchema,
          querystring: courseQuestionsQuerySchema,
          response: { 200: questionSearchSchema },
        },
      },
      async (request) => {
        const course = await lessonOf(request.params.courseId);
        const reader = await readerOf(db, await request.currentUser(), course.card.id);
        return searchCourseQuestions(deps, reader, course, request.query.search, request.query.lessonId);
      },
    );

    app.get(
      "/api/questions/:questionId",
      { schema: { params: questionParamsSchema, response: { 200: questionDetailSchema } } },
      async (request) => {
        const { post, reader } = await questionContext(deps, await request.currentUser(), request.params.questionId);
        return getQuestion(deps, reader, post.id);
      },
    );

    app.patch(
      "/api/questions/:questionId",
      { schema: { params: questionParamsSchema, body: questionEditSchema, response: { 200: questionDetailSchema } } },
      async (request) => editQuestion(deps, await requireUser(request), request.params.questionId, request.body),
    );

    app.delete(
      "/api/questions/:questionId",
      { schema: { params: questionParamsSchema, body: emptyBodySchema, response: { 200: okSchema } } },
      async (request) => {
        await deleteQuestion(deps, await requireUser(request), request.params.questionId);
        return { ok: true as const };
      },
    );

    app.post(
      "/api/questions/:questionId/answers",
      { schema: { params: questionParamsSchema, body: newAnswerSchema, response: { 200: questionDetailSchema } } },
      async (request) => postAnswer(deps, await requireUser(request), request.params.questionId, request.body),
    );

    app.patch(
      "/api/answers/:answerId",
      { schema: { params: answerParamsSchema, body: newAnswerSchema, response: { 200: questionDetailSchema } } },
      async (request) => editAnswer(deps, await requireUser(request), request.params.answerId, request.body),
    );

    app.delete(
      "/api/answers/:answerId",
      { schema: { params: answerParamsSchema, body: emptyBodySchema, response: { 200: questionDetailSchema } } },
      async (request) => deleteAnswer(deps, await requireUser(request), request.params.answerId),
    );

    app.post(
      "/api/answers/:answerId/accept",
      { schema: { params: answerParamsSchema, body: emptyBodySchema, response: { 200: questionDetailSchema } } },
      async (request) => acceptAnswer(deps, await requireUser(request), request.params.answerId),
    );

    for (const on of [true, false]) {
      const route = on ? app.post.bind(app) : app.delete.bind(app);
      route(
        "/api/questions/:questionId/upvote",
        { schema: { params: questionParamsSchema, body: emptyBodySchema, response: { 200: upvoteStateSchema } } },
        async (request) => setUpvote(deps, await requireUser(request), request.params.questionId, on),
      );
      route(
        "/api/questions/:questionId/follow",
        { schema: { params: questionParamsSchema, body: emptyBodySchema, response: { 200: followStateSchema } } },
        async (request) => setFollow(deps, await requireUser(request), request.params.questionId, on),
      );
      route(
        "/api/questions/:questionId/promote",
        { schema: { params: questionParamsSchema, body: emptyBodySchema, response: { 200: promotedStateSchema } } },
        async (request) => setPromoted(deps, await requireUser(request), request.params.questionId, on),
      );
    }

    app.post(
      "/api/posts/preview",
      { schema: { body: previewInputSchema, response: { 200: previewSchema } } },
      async (request) => {
        await requireUser(request);
        return renderPost(request.body.body);
      },
    );

    app.post(
      "/api/posts/:postId/report",
      { schema: { params: postParamsSchema, body: reportInputSchema, response: { 200: okSchema } } },
      async (request) => reportPost(deps, await requireUser(request), request.params.postId, request.body),
    );

    app.get(
      "/api/staff/questions",
      { schema: { querystring: staffQueueQuerySchema, response: { 200: staffQueueSchema } } },
      async (request) => staffQueue(deps, await requireUser(request)),
    );

    app.get("/api/admin/posts", { schema: { response: { 200: moderationQueueSchema } } }, async (request) => {
      await requireAdmin(request);
      return moderationQueue(deps);
    });

    for (const [action, state] of [
      ["hide", "hidden"],
      ["restore", "visible"],
    ] as const)
      app.post(
        `/api/admin/posts/:postId/${action}`,
        { schema: { params: postParamsSchema, body: emptyBodySchema, response: { 200: postStateResponseSchema } } },
        async (request) => setPostState(deps, await requireAdmin(request), request.params.postId, state),
      );

    app.post(
      "/api/admin/learners/:id/posting",
      { schema: { params: learnerParamsSchema, body: postingInputSchema, response: { 200: postingStateSchema } } },
      async (request) => setPostingSuspension(deps, await requireAdmin(request), request.params.id, request.body),
    );

    app.get("/api/notifications", { schema: { response: { 200: notificationsSchema } } }, async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return listNotifications(db, (await requireUser(request)).id);
    });

    app.post(
      "/api/notifications/read",
      { schema: { body: emptyBodySchema, response: { 200: okSchema } } },
      async (request) => {
        await markNotificationsRead(db, (await requireUser(request)).id);
        return { ok: true as const };
      },
    );

    // Mail clients POST the List-Unsubscribe address with a form body (RFC 8058); the token is in the address.
    await app.register(async (scope) => {
      scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) =>
        done(null, {}),
      );
      scope.withTypeProvider<ZodTypeProvider>().post(
        "/api/questions/unsubscribe",
        {
          schema: {
            querystring: questionUnsubscribeQuerySchema,
            body: emptyBodySchema,
            response: { 200: questionUnsubscribeResponseSchema },
          },
          config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
        },
        async (request) => ({
          unsubscribed: true as const,
          message: await unsubscribeFromQuestions(db, config.authSecret, request.query.token),
        }),
      );
    });
  };
}
