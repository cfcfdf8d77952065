import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { binaryFileSchema } from "#shared/schemas/common.ts";
import { mediaByHash } from "../../content/course-versions.ts";
import { MEDIA_FILE, MEDIA_FOLDER, MEDIA_POLICY, MEDIA_TYPES } from "../../content/lesson-media.ts";
import { notFound } from "../../errors.ts";

const paramsSchema = z.object({
  courseId: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a course id"),
  file: z.string().regex(MEDIA_FILE, "must be a media file name"),
});
const querySchema = z.object({
  v: z
    .string()
    .regex(/^[a-f0-9]{6,64}$/)
    .optional(),
});

/**
 * Figures, videos and caption tracks of the lessons (decision 0029), from each course's `media/` folder only:
 * never course.json, quizzes or exams. Lessons link them with ?v=<hash of the file>, so that URL never changes
 * meaning and may be cached for good.
 */
export function mediaRoutes(contentDir: string): FastifyPluginAsyncZod {
  return async (app) => {
    // Registered inside this plugin, reply.sendFile (ranges, ETag, HEAD) exists here only.
    await app.register(fastifyStatic, { root: contentDir, serve: false, cacheControl: false });
    app.get(
      "/media/:courseId/:file",
      {
        schema: {
          params: paramsSchema,
          querystring: querySchema,
          // A figure, video or caption track; its type is the file's (MEDIA_TYPES).
          response: { 200: { content: { "*/*": { schema: binaryFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { courseId, file } = request.params;
        const relativePath = `${courseId}/${MEDIA_FOLDER}/${file}`;
        const extension = file.slice(file.lastIndexOf(".") + 1);
        const type = MEDIA_TYPES[extension];
        if (!type) throw new Error(`MEDIA_FILE lets .${extension} through, and MEDIA_TYPES has no type for it.`);
        const onDisk = existsSync(join(contentDir, relativePath));
        // A file uploaded in the studio lives in the database: found only by its name and hash.
        const stored =
          onDisk || !request.query.v ? null : await mediaByHash(app.deps.database.db, courseId, file, request.query.v);
        if (!onDisk && !stored) throw notFound("No such media file.");
        reply
          .header("content-security-policy", MEDIA_POLICY)
          .header("cache-control", request.query.v ? "public, max-age=31536000, immutable" : "no-cache")
          .type(type);
        return stored ?? reply.sendFile(relativePath, contentDir);
      },
    );
  };
}
