import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { messageSchema } from "#shared/schemas/common.ts";
import {
  createStudioCourseSchema,
  draftSchema,
  failedChecksSchema,
  publishResultSchema,
  publishSchema,
  putCourseSettingsSchema,
  putDraftSchema,
  putOutlineSchema,
  recordedReviewSchema,
  recordReviewSchema,
  republishSchema,
  slugCheckQuerySchema,
  slugCheckSchema,
  studioConflictSchema,
  studioCourseListSchema,
  studioCourseParamsSchema,
  studioInstructorListSchema,
  studioVersionParamsSchema,
  versionDetailSchema,
  versionListSchema,
} from "#shared/schemas/studio.ts";
import { requireAdmin, requireInstructor } from "../../plugins/auth.ts";
import {
  changeDraft,
  createStudioCourse,
  getCourseVersion,
  getDraft,
  listCourseVersions,
  listInstructors,
  listStudioCourses,
  publishDraft,
  putDraft,
  recordReview,
  republishVersion,
  requireCourseAuthor,
  slugTaken,
  withOutline,
  withSettings,
} from "./studio.service.ts";

/** A whole course document: the largest shipped course is about 0.4 MB of text. */
const DOCUMENT_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * The studio's API (docs/decisions/0055): admins everywhere, instructors on the courses assigned to
 * them; learners, assessors and visitors get 403 (401 when not signed in) on every route.
 */
export const studioRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  const author = async (request: Parameters<typeof requireInstructor>[0], courseId: string) => {
    const user = await requireInstructor(request);
    await requireCourseAuthor(db, user, courseId);
    return user;
  };

  app.get("/api/studio/courses", { schema: { response: { 200: studioCourseListSchema } } }, async (request) =>
    listStudioCourses(db, await requireInstructor(request)),
  );

  // Starting a course is for admins (createStudioCourse), so is asking whether a slug is free.
  app.get(
    "/api/studio/course-slug",
    { schema: { querystring: slugCheckQuerySchema, response: { 200: slugCheckSchema } } },
    async (request) => {
      await requireAdmin(request);
      const { slug } = request.query;
      return { slug, available: !(await slugTaken(db, slug)) };
    },
  );

  app.get("/api/studio/instructors", { schema: { response: { 200: studioInstructorListSchema } } }, async (request) => {
    await requireAdmin(request);
    return listInstructors(db);
  });

  app.post(
    "/api/studio/courses",
    { schema: { body: createStudioCourseSchema, response: { 200: draftSchema, 409: messageSchema } } },
    async (request) => createStudioCourse(db, await requireAdmin(request), request.body),
  );

  app.get(
    "/api/studio/courses/:courseId/draft",
    { schema: { params: studioCourseParamsSchema, response: { 200: draftSchema } } },
    async (request) => {
      await author(request, request.params.courseId);
      return getDraft(db, request.params.courseId);
    },
  );

  app.put(
    "/api/studio/courses/:courseId/draft",
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        params: studioCourseParamsSchema,
        body: putDraftSchema,
        response: { 200: draftSchema, 409: studioConflictSchema },
      },
    },
    async (request) => {
      const user = await author(request, request.params.courseId);
      return putDraft(db, user, request.params.courseId, request.body);
    },
  );

  // Finer writes of the draft (docs/decisions/0060): one part sent, guarded by the same revision.
  app.put(
    "/api/studio/courses/:courseId/draft/course",
    {
      schema: {
        params: studioCourseParamsSchema,
        body: putCourseSettingsSchema,
        response: { 200: draftSchema, 409: studioConflictSchema },
      },
    },
    async (request) => {
      const { courseId } = request.params;
      const user = await author(request, courseId);
      return changeDraft(db, user, courseId, request.body.baseRevision, withSettings(request.body.course));
    },
  );

  app.put(
    "/api/studio/courses/:courseId/draft/outline",
    {
      schema: {
        params: studioCourseParamsSchema,
        body: putOutlineSchema,
        response: { 200: draftSchema, 409: studioConflictSchema },
      },
    },
    async (request) => {
      const { courseId } = request.params;
      const user = await author(request, courseId);
      return changeDraft(db, user, courseId, request.body.baseRevision, withOutline(request.body.modules));
    },
  );

  app.post(
    "/api/studio/courses/:courseId/publish",
    {
      config: { stepUp: true },
      schema: {
        params: studioCourseParamsSchema,
        body: publishSchema,
        response: { 200: publishResultSchema, 409: studioConflictSchema, 422: failedChecksSchema },
      },
    },
    async (request) => {
      const user = await author(request, request.params.courseId);
      return publishDraft(db, user, request.params.courseId, request.body);
    },
  );

  app.get(
    "/api/studio/courses/:courseId/versions",
    { schema: { params: studioCourseParamsSchema, response: { 200: versionListSchema } } },
    async (request) => {
      await author(request, request.params.courseId);
      return listCourseVersions(db, request.params.courseId);
    },
  );

  app.get(
    "/api/studio/courses/:courseId/versions/:version",
    { schema: { params: studioVersionParamsSchema, response: { 200: versionDetailSchema } } },
    async (request) => {
      await author(request, request.params.courseId);
      return getCourseVersion(db, request.params.courseId, request.params.version);
    },
  );

  app.post(
    "/api/studio/courses/:courseId/versions/:version/republish",
    {
      config: { stepUp: true },
      schema: {
        params: studioVersionParamsSchema,
        body: republishSchema,
        response: { 200: publishResultSchema, 409: studioConflictSchema, 422: failedChecksSchema },
      },
    },
    async (request) => {
      const user = await requireAdmin(request);
      const { courseId, version } = request.params;
      return republishVersion(db, user, courseId, version, request.body?.note);
    },
  );

  // Who reviewed a published version, with what credential, and when (decision 0058): admins only.
  app.put(
    "/api/studio/courses/:courseId/versions/:version/review",
    {
      schema: {
        params: studioVersionParamsSchema,
        body: recordReviewSchema,
        response: { 200: recordedReviewSchema, 404: messageSchema, 422: messageSchema },
      },
    },
    async (request) => {
      const user = await requireAdmin(request);
      const { courseId, version } = request.params;
      return recordReview(db, user, courseId, version, request.body);
    },
  );
};
