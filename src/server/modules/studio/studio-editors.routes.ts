import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { binaryFileSchema, messageSchema } from "#shared/schemas/common.ts";
import { itemStatisticsSchema } from "#shared/schemas/item-statistics.ts";
import { documentMediaSchema, studioCourseParamsSchema } from "#shared/schemas/studio.ts";
import {
  lessonConflictSchema,
  lessonPreviewSchema,
  lessonSavedSchema,
  mediaParamsSchema,
  mediaQuerySchema,
  putLessonSchema,
  studioItemStatisticsQuerySchema,
  studioLessonParamsSchema,
  uploadMediaSchema,
} from "#shared/schemas/studio-editors.ts";
import { MEDIA_POLICY, MEDIA_TYPES } from "../../content/lesson-media.ts";
import { requireInstructor } from "../../plugins/auth.ts";
import { courseItemStatistics } from "../courses/item-statistics.ts";
import { requireCourseAuthor } from "./studio.service.ts";
import { previewLesson, putLesson, readMedia, uploadMedia } from "./studio-editors.service.ts";

/** A media file in base64 JSON: 4 MB of bytes. */
const MEDIA_BODY_LIMIT = 6 * 1024 * 1024;

/** The editors' routes (docs/decisions/0060, "Editors"): the same callers as the rest of the studio. */
export const studioEditorsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  const author = async (request: Parameters<typeof requireInstructor>[0], courseId: string) => {
    const user = await requireInstructor(request);
    await requireCourseAuthor(db, user, courseId);
    return user;
  };

  app.put(
    "/api/studio/courses/:courseId/lessons/:lessonId",
    {
      schema: {
        params: studioLessonParamsSchema,
        body: putLessonSchema,
        response: { 200: lessonSavedSchema, 404: messageSchema, 409: lessonConflictSchema, 422: messageSchema },
      },
    },
    async (request) => {
      const { courseId, lessonId } = request.params;
      const user = await author(request, courseId);
      return putLesson(db, user, courseId, lessonId, request.body);
    },
  );

  app.post(
    "/api/studio/courses/:courseId/media",
    {
      bodyLimit: MEDIA_BODY_LIMIT,
      schema: {
        params: studioCourseParamsSchema,
        body: uploadMediaSchema,
        response: { 200: documentMediaSchema, 413: messageSchema, 422: messageSchema },
      },
    },
    async (request) => {
      await author(request, request.params.courseId);
      return uploadMedia(db, request.params.courseId, request.body);
    },
  );

  app.get(
    "/api/studio/courses/:courseId/media/:name",
    {
      schema: {
        params: mediaParamsSchema,
        querystring: mediaQuerySchema,
        response: { 200: { content: { "*/*": { schema: binaryFileSchema } } } },
      },
    },
    async (request, reply) => {
      const { courseId, name } = request.params;
      await author(request, courseId);
      const bytes = await readMedia(db, courseId, name, request.query.sha256);
      const type = MEDIA_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
      reply
        .header("content-security-policy", MEDIA_POLICY)
        .header("cache-control", "private, max-age=31536000, immutable")
        .type(type);
      return bytes;
    },
  );

  app.get(
    "/api/studio/courses/:courseId/lessons/:lessonId/preview",
    {
      schema: {
        params: studioLessonParamsSchema,
        response: { 200: lessonPreviewSchema, 404: messageSchema, 422: messageSchema },
      },
    },
    async (request) => {
      const { courseId, lessonId } = request.params;
      await author(request, courseId);
      return previewLesson(db, courseId, lessonId);
    },
  );

  // Beside each published item in the bank editor: the figures admin analytics computes, for the course's authors.
  app.get(
    "/api/studio/courses/:courseId/item-statistics",
    {
      schema: {
        params: studioCourseParamsSchema,
        querystring: studioItemStatisticsQuerySchema,
        response: { 200: itemStatisticsSchema, 404: messageSchema },
      },
    },
    async (request) => {
      const { courseId } = request.params;
      await author(request, courseId);
      return courseItemStatistics(db, app.deps.catalogue, { courseId, version: request.query.version });
    },
  );
};
