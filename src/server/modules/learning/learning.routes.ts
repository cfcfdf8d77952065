import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { quizParamsSchema, quizResultSchema, quizSchema, quizSubmissionSchema } from "#shared/schemas/learning.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { getQuiz, gradeQuizAttempt } from "./learning.service.ts";

export function learningRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;

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
