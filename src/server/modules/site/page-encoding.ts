import { CompressibleBody, preferredCoding } from "../../plugins/serialization.ts";

/**
 * A page (the app shell, painted or not) compressed for the request, in the coding the request
 * prefers and at the level of any body made per request, as the routes' own answers are: pages come
 * from the not-found handler, which @fastify/compress's route hooks do not reach (decision 0046).
 */
export function encodePage(html: string, acceptEncoding: string | undefined) {
  const coding = preferredCoding(acceptEncoding);
  if (!coding) return { encoding: null, body: html } as const;
  return { encoding: coding, body: new CompressibleBody(html, false).as(coding) } as const;
}
