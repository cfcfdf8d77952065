import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { courseParamsSchema, enrollmentListSchema, enrollmentStatusSchema } from "#shared/schemas/courses.ts";
import { requireUser } from "../../plugins/auth.ts";
import { isEnrolled, listEnrollments } from "./enrollments.repository.ts";

export const enrollmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  app.get("/api/enrollments", { schema: { response: { 200: enrollmentListSchema } } }, async (request) => {
    const user = await requireUser(request);
    return listEnrollments(db, user.id);
  });
  app.get(
    "/api/enrollments/:courseId",
    { schema: { params: courseParamsSchema, response: { 200: enrollmentStatusSchema } } },
    async (request) => {
      const user = await requireUser(request);
      return { enrolled: await isEnrolled(db, user.id, request.params.courseId) };
    },
  );
};
