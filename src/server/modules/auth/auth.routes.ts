import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUserSchema } from "#shared/schemas/auth.ts";
import { messageSchema } from "#shared/schemas/common.ts";
import { requireUser } from "../../plugins/auth.ts";

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/auth/user",
    { schema: { response: { 200: currentUserSchema, 401: messageSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      await app.refreshSession(request, reply);
      return user;
    },
  );
};
