import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  courseCardSchema,
  courseDetailSchema,
  courseParamsSchema,
  lessonParamsSchema,
  lessonSchema,
} from "#shared/schemas/courses.ts";
import { notFound } from "../../errors.ts";
import { sendEncoded } from "../../plugins/serialization.ts";
import { COURSE_NOT_FOUND } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { currentLearner } from "../progress/learner-state.ts";
import {
  type CourseDetailTemplate,
  checkedFill,
  courseDetailTemplate,
  fillCourseDetail,
} from "./course-detail-template.ts";
import { readLesson, toCourseDetail } from "./course-pages.service.ts";

export function coursesRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    // The course list and visitors' course pages are the same for everyone: encoded once per import.
    const visitorDetail = new Map<string, Buffer>();
    let visitorDetailOf: unknown = null;
    const cardsBytes = new WeakMap<object, Buffer>();
    // Signed-in course pages: the page encoded once per course and import, the reader's state filled in.
    const templates = new WeakMap<object, CourseDetailTemplate>();
    const checked = app.deps.config.env !== "production";

    app.get("/api/courses", { schema: { response: { 200: z.array(courseCardSchema) } } }, async (_request, reply) => {
      const current = await catalogue.get();
      let bytes = cardsBytes.get(current);
      if (!bytes) {
        bytes = Buffer.from(current.cardsJson);
        cardsBytes.set(current, bytes);
      }
      return sendEncoded(reply, "application/json; charset=utf-8", bytes);
    });

    const detail = { params: courseParamsSchema, response: { 200: courseDetailSchema } };
    app.get("/api/courses/:courseId", { schema: detail }, async (request, reply) => {
      const current = await catalogue.get();
      const course = current.byId.get(request.params.courseId);
      if (!course) throw notFound(COURSE_NOT_FOUND);
      const { user, records } = await currentLearner(request, db, course.card.id);
      if (!user) {
        if (visitorDetailOf !== current) {
          visitorDetail.clear();
          visitorDetailOf = current;
        }
        let json = visitorDetail.get(course.card.id);
        if (!json) {
          json = Buffer.from(JSON.stringify(toCourseDetail(course)));
          visitorDetail.set(course.card.id, json);
        }
        return sendEncoded(reply, "application/json; charset=utf-8", json);
      }
      let template = templates.get(course);
      if (!template) {
        template = courseDetailTemplate(toCourseDetail(course));
        templates.set(course, template);
      }
      const page = toCourseDetail(course, records);
      // Outside production the page is checked against its schema and the template against the page.
      if (checked) courseDetailSchema.parse(page);
      const json = checked ? checkedFill(template, page) : fillCourseDetail(template, page);
      return sendEncoded(reply, "application/json; charset=utf-8", json);
    });

    app.get(
      "/api/courses/:courseId/lessons/:lessonId",
      { schema: { params: lessonParamsSchema, response: { 200: lessonSchema } } },
      async (request) => {
        const course = await catalogue.course(request.params.courseId);
        if (!course) throw notFound(COURSE_NOT_FOUND);
        const { user, records } = await currentLearner(request, db, course.card.id);
        return readLesson(course, request.params.lessonId, records, !!user);
      },
    );
  };
}
