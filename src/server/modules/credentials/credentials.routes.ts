import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { certificateIdParamsSchema } from "#shared/schemas/certificates.ts";
import {
  credentialCheckSchema,
  didDocumentSchema,
  signedCredentialSchema,
  statusListParamsSchema,
} from "#shared/schemas/credentials.ts";
import { requireUser } from "../../plugins/auth.ts";
import { sendEncoded } from "../../plugins/serialization.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import {
  checkCertificateCredential,
  getHolderCredential,
  getIssuerDidDocument,
  getSignedStatusList,
} from "./credentials.service.ts";

export function credentialsRoutes(catalogue: CourseCatalogue): FastifyPluginAsyncZod {
  return async (app) => {
    const { database, config } = app.deps;
    const db = database.db;

    app.get(
      "/api/certificates/:certificateId/credential",
      { schema: { params: certificateIdParamsSchema, response: { 200: signedCredentialSchema } } },
      async (request, reply) => {
        const user = await requireUser(request);
        const credential = await getHolderCredential(db, config, catalogue, user, request.params.certificateId);
        reply
          .header("content-disposition", `attachment; filename="credential-${request.params.certificateId}.json"`)
          .header("cache-control", "private, no-store");
        return sendEncoded(reply, "application/json", JSON.stringify(credential, null, 2));
      },
    );

    // Public; each check signs nothing new but runs the verifier, so it is limited like the verify lookup.
    app.get(
      "/api/verify/:certificateId/credential",
      {
        schema: { params: certificateIdParamsSchema, response: { 200: credentialCheckSchema } },
        config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      },
      async (request) => checkCertificateCredential(db, config, catalogue, request.params.certificateId),
    );

    const didResponse = { 200: { content: { "application/did+json": { schema: didDocumentSchema } } } };
    app.get("/.well-known/did.json", { schema: { response: didResponse } }, async (_request, reply) =>
      sendEncoded(
        reply.header("cache-control", "public, max-age=300"),
        "application/did+json",
        JSON.stringify(await getIssuerDidDocument(db, config)),
      ),
    );

    app.get(
      "/credentials/status/:listId",
      {
        schema: {
          params: statusListParamsSchema,
          response: { 200: { content: { "application/vc+ld+json": { schema: signedCredentialSchema } } } },
        },
        config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      },
      async (request, reply) =>
        sendEncoded(
          reply.header("cache-control", "public, max-age=60"),
          "application/vc+ld+json",
          JSON.stringify(await getSignedStatusList(db, config, request.params.listId)),
        ),
    );
  };
}
