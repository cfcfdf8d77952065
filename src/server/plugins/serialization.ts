import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fastJson from "fast-json-stringify";
import type { FastifyReply, FastifyRequest, FastifySerializerCompiler } from "fastify";
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

/** As @fastify/compress does for the other routes, nothing under 1 kB is compressed. */
const COMPRESS_FROM_BYTES = 1024;
type Coding = "br" | "gzip";
/**
 * How hard to compress. A body kept between requests is compressed once, so as small as it gets
 * (brotli 11: a course page 8.5 kB → 1.9 kB in 12 ms, once per import). One made per request is
 * compressed fast, on the event loop (brotli 1: 2.6 kB in 56 µs, where the plugin's quality 4 gave
 * 2.3 kB in 191 µs plus its stream's overhead; decision 0048).
 */
const LEVELS = {
  kept: { br: { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }, gzip: { level: 9 } },
  once: { br: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }, gzip: { level: 1 } },
};

/**
 * A response body and its compressed forms, each made when first asked for and kept with it. A body
 * kept between requests (the course list, a visitor's course page) is compressed once per content
 * import instead of once per request: brotli took longer than the rest of such a request (decision 0048).
 */
export class CompressibleBody {
  readonly #compressed = new Map<Coding, Buffer>();
  /**
   * A string is sent as UTF-8; its length in characters stands for its size against the 1 kB floor.
   * `kept`: the body answers many requests (compressed harder, once).
   */
  constructor(
    readonly bytes: Buffer | string,
    private readonly kept: boolean,
  ) {}
  as(coding: Coding): Buffer {
    let compressed = this.#compressed.get(coding);
    if (!compressed) {
      const level = LEVELS[this.kept ? "kept" : "once"];
      compressed = coding === "br" ? brotliCompressSync(this.bytes, level.br) : gzipSync(this.bytes, level.gzip);
      this.#compressed.set(coding, compressed);
    }
    return compressed;
  }
}

/**
 * The coding an Accept-Encoding header prefers among brotli and gzip (the highest q above 0; brotli
 * on a tie, `*` for either, `x-gzip` as gzip), or null for the body as it is.
 */
export function preferredCoding(header: string | undefined): Coding | null {
  if (!header) return null;
  let best: Coding | null = null;
  let bestQ = 0;
  const quality = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    const value = q ? Number(q.slice(2)) : 1;
    quality.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(value) ? value : 0);
  }
  for (const coding of ["br", "gzip"] as const) {
    const q = quality.get(coding) ?? quality.get("*") ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/**
 * Sends a body compressed as the client prefers, for routes registered with `compress: false`
 * (@fastify/compress's two hooks then stay off them); every answer says it varies by Accept-Encoding.
 */
export function sendCompressible(
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  body: CompressibleBody,
) {
  reply.header("vary", "accept-encoding");
  const coding = body.bytes.length >= COMPRESS_FROM_BYTES ? preferredCoding(request.headers["accept-encoding"]) : null;
  if (!coding) return sendEncoded(reply, contentType, body.bytes);
  reply.header("content-encoding", coding);
  return sendEncoded(reply, contentType, body.as(coding));
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
