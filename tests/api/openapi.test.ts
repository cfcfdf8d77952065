import { readFileSync } from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { courseCardSchema, courseDetailSchema } from "#shared/schemas/courses.ts";
import { didDocumentSchema } from "#shared/schemas/credentials.ts";
import { API_TYPES_FILE, apiTypesSource, completeOpenApiDocument } from "../../scripts/api-types.ts";
import { createTestApp, request, type TestApp } from "../setup/test-app.ts";

// The route contract (docs/architecture.md, "Route contracts"): every route declares the answer it
// sends, the server publishes them all as one OpenAPI document, and the client is typed from it.

/** Left out of the document on purpose: the docs page's own files, and Better Auth's endpoints. */
const UNDOCUMENTED = [/^\/api\/docs(\/|$)/, /^\/api\/auth\/\*$/];

const STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
};

const methodsOf = (route: RouteOptions) => [route.method].flat().filter((m) => m !== "HEAD");
const openApiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");
const isSuccessKey = (status: string) => /^2(\d\d|xx)$/.test(status);

describe("the route contract", () => {
  const sandboxRoutes: RouteOptions[] = [];
  const stripeRoutes: RouteOptions[] = [];
  const routes = [sandboxRoutes, stripeRoutes];
  let sandbox: TestApp;
  let stripe: TestApp;
  beforeAll(async () => {
    // Between them, the two payment providers register every route there is.
    sandbox = await createTestApp({ onRoute: (route) => sandboxRoutes.push(route) });
    stripe = await createTestApp({ env: STRIPE, onRoute: (route) => stripeRoutes.push(route) });
  });
  afterAll(async () => {
    await sandbox?.close();
    await stripe?.close();
  });

  it("every route declares the answer it sends on success; only the docs page and Better Auth stay out of the document", () => {
    const offenders = routes
      .flat()
      .filter((route) => methodsOf(route).length > 0)
      .filter((route) => !UNDOCUMENTED.some((pattern) => pattern.test(route.url)))
      .filter((route) => {
        const response = (route.schema?.response ?? {}) as Record<string, unknown>;
        return route.schema?.hide || !Object.keys(response).some(isSuccessKey);
      })
      .map((route) => `${methodsOf(route).join(",")} ${route.url}`);
    expect([...new Set(offenders)]).toEqual([]);
  });

  it("serves a valid OpenAPI 3 document at /api/openapi.json with every documented route", async () => {
    for (const [app, appRoutes] of [
      [sandbox.app, sandboxRoutes],
      [stripe.app, stripeRoutes],
    ] as const) {
      const response = await request(app, "GET", "/api/openapi.json");
      expect(response.statusCode).toBe(200);
      const document = response.json();
      expect(document.openapi).toMatch(/^3\./);
      const result = await validate(structuredClone(document));
      expect(result.valid ? "" : compileErrors(result)).toBe("");
      const missing = appRoutes
        .filter((route) => !UNDOCUMENTED.some((pattern) => pattern.test(route.url)))
        .flatMap((route) => methodsOf(route).map((method) => `${method} ${openApiPath(route.url)}`))
        .filter((key) => {
          const [method = "", path = ""] = key.split(" ");
          return !document.paths[path]?.[method.toLowerCase()];
        });
      expect(missing).toEqual([]);
    }
  });

  it("shows the document on a docs page for integrators at /api/docs", async () => {
    const page = await sandbox.app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("the client's committed types are generated from today's document (npm run api:types)", async () => {
    const generated = await apiTypesSource(await completeOpenApiDocument());
    expect(readFileSync(API_TYPES_FILE, "utf8") === generated, "run npm run api:types").toBe(true);
  });

  it("answers sent as bytes encoded ahead match their declared schemas", async () => {
    const cards = await request(sandbox.app, "GET", "/api/courses");
    expect(z.array(courseCardSchema).safeParse(cards.json()).error).toBeUndefined();
    const detail = await request(sandbox.app, "GET", "/api/courses/fixture-basics");
    expect(courseDetailSchema.safeParse(detail.json()).error).toBeUndefined();
    const did = await request(sandbox.app, "GET", "/.well-known/did.json");
    expect(didDocumentSchema.safeParse(did.json()).error).toBeUndefined();
  });
});
