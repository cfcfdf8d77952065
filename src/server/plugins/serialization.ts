import fastJson from "fast-json-stringify";
import type { FastifyReply, FastifySerializerCompiler } from "fastify";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * Sends an answer already encoded (bytes kept between requests, a signed document as text).
 * Fastify sends strings and buffers as they are, so the route's response schema documents this
 * answer but does not check it: tests/api/openapi.test.ts parses these answers with their schemas.
 */
export function sendEncoded(reply: FastifyReply, contentType: string, body: string | Buffer) {
  return reply.type(contentType).send(body);
}

/**
 * Responses are written by fast-json-stringify from JSON Schemas generated once, per route, from
 * the shared zod schemas: no zod pass per response. With `validate` (tests and development), each
 * response is also checked against its zod schema first, so a route that drifts from its contract
 * fails there, and the bytes sent are still the production serialiser's.
 */
export function responseSerializerCompiler(validate: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    if (!(schema instanceof z.ZodType)) return fastJson(schema as object) as (data: unknown) => string;
    const jsonSchema = z.toJSONSchema(schema, { target: "draft-7", io: "output", unrepresentable: "any" });
    const stringify = fastJson(jsonSchema as object) as (data: unknown) => string;
    if (!validate) return stringify;
    return (data: unknown) => {
      const result = schema.safeParse(data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      return stringify(data);
    };
  };
}
