import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  attemptRefusedSchema,
  examParamsSchema,
  examRulesSchema,
  quizParamsSchema,
  quizResultSchema,
  quizSchema,
  quizSubmissionSchema,
} from "#shared/schemas/learning.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { currentLearner } from "../progress/learner-state.ts";
import { examRules, startOrResumeAttempt, submitAttempt } from "./assessment.service.ts";
import { examAssessment, quizAssessment } from "./assessment-access.ts";

/** Module quizzes and final exams: GET starts or resumes an attempt, POST grades it. */
export function assessmentRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const deps = { db: app.deps.database.db, config: app.deps.config, counters: app.deps.counters };

    app.get(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, response: { 200: quizSchema, 429: attemptRefusedSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        const { user, records } = await currentLearner(request, deps.db, course.card.id);
        const assessment = await quizAssessment(deps.db, user, course, request.params.moduleId, records);
        return startOrResumeAttempt(deps, assessment, request.ip);
      },
    );

    app.post(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, body: quizSubmissionSchema, response: { 200: quizResultSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        const { user, records } = await currentLearner(request, deps.db, course.card.id);
        const assessment = await quizAssessment(deps.db, user, course, request.params.moduleId, records);
        return submitAttempt(deps, assessment, request.body);
      },
    );

    app.get(
      "/api/exam/:courseId",
      { schema: { params: examParamsSchema, response: { 200: quizSchema, 429: attemptRefusedSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        const assessment = await examAssessment(deps.db, await request.currentUser(), course);
        return startOrResumeAttempt(deps, assessment, request.ip);
      },
    );

    app.get(
      "/api/exam/:courseId/rules",
      { schema: { params: examParamsSchema, response: { 200: examRulesSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        return examRules(deps, await examAssessment(deps.db, await request.currentUser(), course));
      },
    );

    app.post(
      "/api/exam/:courseId",
      { schema: { params: examParamsSchema, body: quizSubmissionSchema, response: { 200: quizResultSchema } } },
      async (request) => {
        const course = requireCourse(await catalogue.course(request.params.courseId));
        const assessment = await examAssessment(deps.db, await request.currentUser(), course);
        return submitAttempt(deps, assessment, request.body);
      },
    );
  };
}
