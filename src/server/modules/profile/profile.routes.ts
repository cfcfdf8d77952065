import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatPersonName } from "#shared/format.ts";
import { currentUserSchema } from "#shared/schemas/auth.ts";
import { profileInputSchema } from "#shared/schemas/certificates.ts";
import { requireUser } from "../../plugins/auth.ts";

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  app.put(
    "/api/profile",
    { schema: { body: profileInputSchema, response: { 200: currentUserSchema } } },
    async (request) => {
      const user = await requireUser(request);
      const { firstName, lastName, nameOrder = user.nameOrder } = request.body;
      await db
        .updateTable("user")
        .set({
          firstName,
          lastName,
          nameOrder,
          name: formatPersonName(firstName, lastName, nameOrder),
          updatedAt: new Date().toISOString(),
        })
        .where("id", "=", user.id)
        .execute();
      return { ...user, firstName, lastName, nameOrder };
    },
  );
};
