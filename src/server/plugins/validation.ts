import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { refusingControlCharacters } from "#shared/schemas/text.ts";

/**
 * Every route's params, query, body and headers go through the shared plain-text refinement before
 * the route's own schema, so no route can forget it: control characters get a 400 with a message.
 */
export const plainTextValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({ ...route, schema: refusingControlCharacters(route.schema) } as typeof route & {
    schema: FastifySchema;
  });
