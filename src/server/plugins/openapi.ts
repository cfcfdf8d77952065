import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { BRAND_NAME } from "#shared/constants.ts";

/** Where the document and its page are served. */
export const OPENAPI_PATH = "/api/openapi.json";
export const API_DOCS_PATH = "/api/docs";

const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * The OpenAPI 3.0 document of every route, made by @fastify/swagger from the routes' own zod
 * schemas (so it cannot drift from what the server validates and sends), served at
 * /api/openapi.json and shown at /api/docs. Register before the routes: it learns of them as they
 * are added. The client's types are generated from it (src/client/lib/api-types.gen.ts).
 */
export async function registerOpenApi(app: FastifyInstance) {
  const toJsonSchemas = createJsonSchemaTransform({ skipList: [`${API_DOCS_PATH}/*`] });
  // @fastify/swagger marks every body required; ours may be left out when their schema takes
  // `undefined` (emptyBodySchema: the bodiless POSTs), which the document must say.
  const optionalBodies = new Set<string>();
  const noteOptionalBody = (url: string, methods: string | string[], body: unknown) => {
    if (!(body instanceof z.ZodType) || !body.safeParse(undefined).success) return;
    const path = url.replace(/:(\w+)/g, "{$1}");
    for (const method of [methods].flat()) optionalBodies.add(`${method.toLowerCase()} ${path}`);
  };
  type Operation = { requestBody?: object } | undefined;
  const withOptionalBodies = <Document extends { paths?: object }>(document: Document) => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries<Operation>(item ?? {})) {
        if (operation?.requestBody && optionalBodies.has(`${method} ${path}`))
          Object.assign(operation.requestBody, { required: false });
      }
    }
    return document;
  };

  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: `${BRAND_NAME} API`,
        version: "1",
        description: [
          "The JSON API behind the academy's web app. Requests and answers are JSON; errors are",
          "`{ message }` with a 4xx or 5xx status. Signing in sets a session cookie (Better Auth's",
          "endpoints under `/api/auth/`: `sign-up/email`, `sign-in/email`, `sign-out`,",
          "`request-password-reset`, `reset-password`), which every other call sends back.",
          "State-changing requests from another origin are refused.",
        ].join(" "),
      },
    },
    transform: (route) => {
      noteOptionalBody(route.url, route.route.method, route.schema?.body);
      return toJsonSchemas(route);
    },
    transformObject: (document) => ("openapiObject" in document ? withOptionalBodies(document.openapiObject) : {}),
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PATH, uiConfig: { deepLinking: true } });

  let document: string | undefined;
  app.get(
    OPENAPI_PATH,
    { schema: { summary: "This document", response: { 200: openApiDocumentSchema } } },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type("application/json; charset=utf-8").send(document);
    },
  );
}
