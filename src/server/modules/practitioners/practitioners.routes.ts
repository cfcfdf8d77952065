import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { emptyBodySchema } from "#shared/schemas/common.ts";
import {
  ownPractitionerListingSchema,
  practitionerDirectorySchema,
  practitionerListingInputSchema,
  practitionerSearchSchema,
} from "#shared/schemas/practitioners.ts";
import { requireUser } from "../../plugins/auth.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { getOwnListing, removeOwnListing, saveOwnListing, searchDirectory } from "./practitioners.service.ts";

export function practitionersRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;

    app.get(
      "/api/practitioners",
      {
        schema: { querystring: practitionerSearchSchema, response: { 200: practitionerDirectorySchema } },
        config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        return searchDirectory(db, await catalogue.get(), request.query);
      },
    );

    app.get(
      "/api/profile/practitioner",
      { schema: { response: { 200: ownPractitionerListingSchema } } },
      async (request) => getOwnListing(db, await requireUser(request)),
    );

    app.put(
      "/api/profile/practitioner",
      { schema: { body: practitionerListingInputSchema, response: { 200: ownPractitionerListingSchema } } },
      async (request) => saveOwnListing(db, await requireUser(request), request.body),
    );

    app.delete(
      "/api/profile/practitioner",
      { schema: { body: emptyBodySchema, response: { 200: ownPractitionerListingSchema } } },
      async (request) => removeOwnListing(db, await requireUser(request)),
    );
  };
}
