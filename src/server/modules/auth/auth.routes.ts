import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUserOrNullSchema } from "#shared/schemas/auth.ts";

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // A visitor is an answer, not an error: `null` with 200, so a signed-out page load logs nothing
  // in the browser's console (docs/decisions/0015). Every other route still answers 401.
  app.get("/api/auth/user", { schema: { response: { 200: currentUserOrNullSchema } } }, async (request, reply) => {
    const user = await request.currentUser();
    if (user) await app.refreshSession(request, reply);
    return user;
  });
};
