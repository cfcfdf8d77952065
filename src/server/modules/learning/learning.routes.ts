import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { courseParamsSchema, lessonParamsSchema } from "#shared/schemas/courses.ts";
import {
  completeCourseInputSchema,
  lessonCompletedSchema,
  myLearningSchema,
  progressSchema,
  quizParamsSchema,
  quizResultSchema,
  quizSchema,
  quizSubmissionSchema,
} from "#shared/schemas/learning.ts";
import { requireUser } from "../../plugins/auth.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import {
  completeLesson,
  getMyLearning,
  getProgress,
  getQuiz,
  gradeQuizAttempt,
  markCourseComplete,
  requireCourse,
} from "./learning.service.ts";

export function learningRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;

    app.get("/api/my-learning", { schema: { response: { 200: myLearningSchema } } }, async (request) => {
      const user = await requireUser(request);
      return getMyLearning(db, user, await catalogue.get());
    });

    app.get(
      "/api/progress/:courseId",
      { schema: { params: courseParamsSchema, response: { 200: progressSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return getProgress(db, user, requireCourse(await catalogue.course(request.params.courseId)));
      },
    );

    app.put(
      "/api/progress/:courseId",
      { schema: { params: courseParamsSchema, body: completeCourseInputSchema, response: { 200: progressSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return markCourseComplete(db, user, requireCourse(await catalogue.course(request.params.courseId)));
      },
    );

    app.post(
      "/api/progress/:courseId/lessons/:lessonId/complete",
      { schema: { params: lessonParamsSchema, body: emptyBodySchema, response: { 200: lessonCompletedSchema } } },
      async (request) => {
        const user = await requireUser(request);
        return completeLesson(
          db,
          user,
          requireCourse(await catalogue.course(request.params.courseId)),
          request.params.lessonId,
        );
      },
    );

    app.get(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, response: { 200: quizSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        return getQuiz(db, await request.currentUser(), course, request.params.moduleId);
      },
    );

    app.post(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, body: quizSubmissionSchema, response: { 200: quizResultSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        return gradeQuizAttempt(db, await request.currentUser(), course, request.params.moduleId, request.body.answers);
      },
    );
  };
}
