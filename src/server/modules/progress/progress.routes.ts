import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import { courseParamsSchema, lessonParamsSchema } from "#shared/schemas/courses.ts";
import {
  completeCourseInputSchema,
  lessonCompletedSchema,
  myLearningSchema,
  progressSchema,
} from "#shared/schemas/learning.ts";
import { unauthorized } from "../../errors.ts";
import { requireUser } from "../../plugins/auth.ts";
import { requireCourse } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { currentLearner, servedCourse, servedCourseFor } from "./learner-state.ts";
import { completeLesson, getMyLearning, getProgress, markCourseComplete } from "./progress.service.ts";

/** The learner's state: My Learning, progress, lesson completion and finishing a course. */
export function progressRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;

    app.get("/api/my-learning", { schema: { response: { 200: myLearningSchema } } }, async (request) => {
      const user = await requireUser(request);
      return getMyLearning(db, user, catalogue);
    });

    app.get(
      "/api/progress/:courseId",
      { schema: { params: courseParamsSchema, response: { 200: progressSchema } } },
      async (request) => {
        const learner = await currentLearner(request, db, request.params.courseId);
        if (!learner.user) throw unauthorized();
        const latest = requireCourse(await catalogue.course(request.params.courseId));
        const { course, records } = await servedCourse(catalogue, latest, learner.records);
        return getProgress(db, learner.user, course, records);
      },
    );

    app.put(
      "/api/progress/:courseId",
      { schema: { params: courseParamsSchema, body: completeCourseInputSchema, response: { 200: progressSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const latest = requireCourse(await catalogue.course(request.params.courseId));
        return markCourseComplete(db, user, await servedCourseFor(catalogue, db, user.id, latest));
      },
    );

    app.post(
      "/api/progress/:courseId/lessons/:lessonId/complete",
      { schema: { params: lessonParamsSchema, body: emptyBodySchema, response: { 200: lessonCompletedSchema } } },
      async (request) => {
        const learner = await currentLearner(request, db, request.params.courseId);
        if (!learner.user) throw unauthorized();
        const latest = requireCourse(await catalogue.course(request.params.courseId));
        const { course, records } = await servedCourse(catalogue, latest, learner.records);
        return completeLesson(db, learner.user, course, request.params.lessonId, records);
      },
    );
  };
}
