import type { FastifyInstance } from "fastify";
import { badRequest } from "../errors.ts";

/** No request body of ours nests anywhere near this deep; a deeper one is an attack on the parsers and walkers. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_MESSAGE = `The request body is nested too deeply (${MAX_JSON_DEPTH} levels at most).`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text opens more than `limit` objects or arrays inside each other. One pass over the
 * characters, no recursion and no parsing: it only needs to know when it is inside a string. Works on
 * invalid JSON too (the parser refuses that afterwards).
 */
export function nestsDeeperThan(text: string | Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  const length = text.length;
  const at = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i] as number;
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON bodies are measured before they are parsed: one too deep is refused with a 400 before any
 * parser, schema walk, Better Auth or database sees it. Otherwise Fastify's own parser (with its
 * prototype-poisoning protection) takes over.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (nestsDeeperThan(body)) {
      done(badRequest(TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
