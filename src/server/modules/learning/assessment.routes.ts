import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
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
import { currentLearnerWith, FINAL_EXAM_ID, type SessionRequest, servedCourse } from "../progress/learner-state.ts";
import { attemptReadsOf, sessionWithAttempts } from "./assessment.repository.ts";
import { examRules, readOpenAttempt, startOrResumeAttempt, submitAttempt } from "./assessment.service.ts";
import { examAssessment, quizAssessment } from "./assessment-access.ts";

/**
 * Module quizzes and final exams: POST .../attempt starts or resumes an attempt (behind the origin
 * check: a link on another site cannot start one), GET reads the open one, POST grades it.
 */
export function assessmentRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const deps = { db: app.deps.database.db, config: app.deps.config, counters: app.deps.counters };

    /** The quiz the learner may take, and on PostgreSQL their attempts, read with the session (decision 0047). */
    async function quizOf(request: SessionRequest, params: { courseId: string; moduleId: string }) {
      const latest = requireCourse(await catalogue.course(params.courseId));
      const learner = await currentLearnerWith(request, deps.db, latest.card.id, sessionWithAttempts, params.moduleId);
      const { course, records } = await servedCourse(catalogue, latest, learner.records);
      const assessment = await quizAssessment(deps.db, learner.user, course, params.moduleId, records);
      return { assessment, reads: learner.beside && attemptReadsOf(learner.beside) };
    }
    /** The same for the course's final exam. */
    async function examOf(request: SessionRequest, courseId: string) {
      const latest = requireCourse(await catalogue.course(courseId));
      const learner = await currentLearnerWith(request, deps.db, latest.card.id, sessionWithAttempts, FINAL_EXAM_ID);
      const { course, records } = await servedCourse(catalogue, latest, learner.records);
      const assessment = await examAssessment(deps.db, learner.user, course, records);
      return { assessment, reads: learner.beside && attemptReadsOf(learner.beside) };
    }

    app.post(
      "/api/quiz/:courseId/:moduleId/attempt",
      {
        schema: {
          params: quizParamsSchema,
          body: emptyBodySchema,
          response: { 200: quizSchema, 429: attemptRefusedSchema },
        },
      },
      async (request) => {
        const { assessment, reads } = await quizOf(request, request.params);
        return startOrResumeAttempt(deps, assessment, request.ip, reads);
      },
    );

    app.get(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, response: { 200: quizSchema } } },
      async (request) => {
        const { assessment, reads } = await quizOf(request, request.params);
        return readOpenAttempt(deps, assessment, reads);
      },
    );

    app.post(
      "/api/quiz/:courseId/:moduleId",
      { schema: { params: quizParamsSchema, body: quizSubmissionSchema, response: { 200: quizResultSchema } } },
      async (request) => {
        const { assessment, reads } = await quizOf(request, request.params);
        return submitAttempt(deps, assessment, request.body, reads);
      },
    );

    app.post(
      "/api/exam/:courseId/attempt",
      {
        schema: {
          params: examParamsSchema,
          body: emptyBodySchema,
          response: { 200: quizSchema, 429: attemptRefusedSchema },
        },
      },
      async (request) => {
        const { assessment, reads } = await examOf(request, request.params.courseId);
        return startOrResumeAttempt(deps, assessment, request.ip, reads);
      },
    );

    app.get(
      "/api/exam/:courseId",
      { schema: { params: examParamsSchema, response: { 200: quizSchema } } },
      async (request) => {
        const { assessment, reads } = await examOf(request, request.params.courseId);
        return readOpenAttempt(deps, assessment, reads);
      },
    );

    app.get(
      "/api/exam/:courseId/rules",
      { schema: { params: examParamsSchema, response: { 200: examRulesSchema } } },
      async (request) => {
        const { assessment, reads } = await examOf(request, request.params.courseId);
        return examRules(deps, assessment, reads);
      },
    );

    app.post(
      "/api/exam/:courseId",
      { schema: { params: examParamsSchema, body: quizSubmissionSchema, response: { 200: quizResultSchema } } },
      async (request) => {
        const { assessment, reads } = await examOf(request, request.params.courseId);
        return submitAttempt(deps, assessment, request.body, reads);
      },
    );
  };
}
