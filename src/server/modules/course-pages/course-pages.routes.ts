import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import {
  courseCardSchema,
  courseDetailSchema,
  courseParamsSchema,
  lessonParamsSchema,
  lessonSchema,
  moveToLatestSchema,
} from "#shared/schemas/courses.ts";
import { notFound, unauthorized } from "../../errors.ts";
import { requireUser } from "../../plugins/auth.ts";
import { CompressibleBody, sendCompressible } from "../../plugins/serialization.ts";
import { COURSE_NOT_FOUND } from "../courses/course-access.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { accommodationRow, timeMultiplierIn, timeMultiplierOf } from "../progress/accommodation.ts";
import {
  currentLearner,
  currentLearnerWith,
  learnerStatement,
  servedCourse,
  servedCourseFor,
} from "../progress/learner-state.ts";
import {
  type CourseDetailTemplate,
  checkedFill,
  courseDetailTemplate,
  fillCourseDetail,
} from "./course-detail-template.ts";
import { moveSummary, moveToLatest, readLesson, toCourseDetail } from "./course-pages.service.ts";

/** The session, the records and the reader's exam accommodation in one statement (PostgreSQL). */
const sessionWithAccommodation = learnerStatement((userId) => accommodationRow(userId));

export function coursesRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    // The course list and visitors' course pages are the same for everyone: encoded (and compressed,
    // once per coding asked for) once per import. These routes compress their own answers.
    const visitorDetail = new Map<string, CompressibleBody>();
    let visitorDetailOf: unknown = null;
    const cardsBytes = new WeakMap<object, CompressibleBody>();
    const JSON_TYPE = "application/json; charset=utf-8";
    // Signed-in course pages: the page encoded once per course and import, the reader's state filled in.
    const templates = new WeakMap<object, CourseDetailTemplate>();
    const checked = app.deps.config.env !== "production";

    app.get(
      "/api/courses",
      { schema: { response: { 200: z.array(courseCardSchema) } }, compress: false },
      async (request, reply) => {
        const current = await catalogue.get();
        let body = cardsBytes.get(current);
        if (!body) {
          body = new CompressibleBody(Buffer.from(current.cardsJson), true);
          cardsBytes.set(current, body);
        }
        return sendCompressible(request, reply, JSON_TYPE, body);
      },
    );

    const detail = { params: courseParamsSchema, response: { 200: courseDetailSchema } };
    app.get("/api/courses/:courseId", { schema: detail, compress: false }, async (request, reply) => {
      const current = await catalogue.get();
      const latest = current.byId.get(request.params.courseId);
      if (!latest) throw notFound(COURSE_NOT_FOUND);
      const learner = await currentLearnerWith(request, db, latest.card.id, sessionWithAccommodation, "");
      const { user } = learner;
      const { course, records } = await servedCourse(catalogue, latest, learner.records);
      if (!user) {
        if (visitorDetailOf !== current) {
          visitorDetail.clear();
          visitorDetailOf = current;
        }
        let body = visitorDetail.get(course.card.id);
        if (!body) {
          body = new CompressibleBody(Buffer.from(JSON.stringify(toCourseDetail(course))), true);
          visitorDetail.set(course.card.id, body);
        }
        return sendCompressible(request, reply, JSON_TYPE, body);
      }
      let template = templates.get(course);
      if (!template) {
        template = courseDetailTemplate(toCourseDetail(course));
        templates.set(course, template);
      }
      // The exam card states the reader's own time limit; on PostgreSQL it was read with the session.
      const multiplier =
        !course.exam?.timeLimitMinutes || !records.enrolled
          ? 1
          : learner.beside
            ? timeMultiplierIn(learner.beside)
            : await timeMultiplierOf(db, user.id);
      const page = toCourseDetail(course, records, moveSummary(course, latest, learner.records), multiplier);
      // Outside production the page is checked against its schema and the template against the page.
      if (checked) courseDetailSchema.parse(page);
      const json = checked ? checkedFill(template, page) : fillCourseDetail(template, page);
      // The same address answers visitors the shared page: a signed-in learner's is for them alone.
      reply.header("cache-control", "private, no-cache");
      return sendCompressible(request, reply, JSON_TYPE, new CompressibleBody(json, false));
    });

    app.get(
      "/api/courses/:courseId/lessons/:lessonId",
      { schema: { params: lessonParamsSchema, response: { 200: lessonSchema } } },
      async (request) => {
        const latest = await catalogue.course(request.params.courseId);
        if (!latest) throw notFound(COURSE_NOT_FOUND);
        const learner = await currentLearner(request, db, latest.card.id);
        const { course, records } = await servedCourse(catalogue, latest, learner.records);
        return readLesson(course, request.params.lessonId, records, !!learner.user);
      },
    );

    app.post(
      "/api/courses/:courseId/move-to-latest",
      { schema: { params: courseParamsSchema, body: emptyBodySchema, response: { 200: moveToLatestSchema } } },
      async (request) => {
        const user = await requireUser(request);
        if (!user) throw unauthorized();
        const latest = await catalogue.course(request.params.courseId);
        if (!latest) throw notFound(COURSE_NOT_FOUND);
        return moveToLatest(db, user.id, await servedCourseFor(catalogue, db, user.id, latest), latest);
      },
    );
  };
}
