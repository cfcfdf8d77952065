import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { courseParamsSchema, lessonParamsSchema, lessonSchema } from "#shared/schemas/courses.ts";
import { notFound } from "../../errors.ts";
import { loadLearnerRecords, NO_RECORDS } from "../progress/learner-state.ts";
import { COURSE_NOT_FOUND } from "./course-access.ts";
import type { CourseCatalogue } from "./course-catalogue.ts";
import { readLesson, toCourseDetail } from "./courses.service.ts";

export function coursesRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    // Visitors' course pages are the same for everyone: serialised once per import.
    const visitorDetail = new Map<string, string>();
    let visitorDetailOf: unknown = null;

    app.get("/api/courses", async (_request, reply) => {
      const { cardsJson } = await catalogue.get();
      return reply.type("application/json; charset=utf-8").send(cardsJson);
    });

    app.get("/api/courses/:courseId", { schema: { params: courseParamsSchema } }, async (request, reply) => {
      const current = await catalogue.get();
      const course = current.byId.get(request.params.courseId);
      if (!course) throw notFound(COURSE_NOT_FOUND);
      const user = await request.currentUser();
      if (!user) {
        if (visitorDetailOf !== current) {
          visitorDetail.clear();
          visitorDetailOf = current;
        }
        let json = visitorDetail.get(course.card.id);
        if (!json) {
          json = JSON.stringify(toCourseDetail(course));
          visitorDetail.set(course.card.id, json);
        }
        return reply.type("application/json; charset=utf-8").send(json);
      }
      const records = await loadLearnerRecords(db, user.id, course.card.id);
      return reply.type("application/json; charset=utf-8").send(JSON.stringify(toCourseDetail(course, records)));
    });

    app.get(
      "/api/courses/:courseId/lessons/:lessonId",
      { schema: { params: lessonParamsSchema, response: { 200: lessonSchema } } },
      async (request) => {
        const course = await catalogue.course(request.params.courseId);
        if (!course) throw notFound(COURSE_NOT_FOUND);
        const user = await request.currentUser();
        const records = user ? await loadLearnerRecords(db, user.id, course.card.id) : NO_RECORDS;
        return readLesson(course, request.params.lessonId, records, !!user);
      },
    );
  };
}
