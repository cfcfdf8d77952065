import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { preferredCoding } from "../../plugins/serialization.ts";

/**
 * A page (the app shell, painted or not) compressed for the request, in the coding the request
 * prefers (the same choice as the routes' pre-compressed bodies), as @fastify/compress does for
 * routes: its hooks attach to routes only, and pages come from the not-found handler (decision
 * 0046). Brotli at quality 4 (the plugin's default), gzip at its default level.
 */
export function encodePage(html: string, acceptEncoding: string | undefined) {
  const coding = preferredCoding(acceptEncoding);
  if (coding === "br")
    return {
      encoding: "br",
      body: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    } as const;
  if (coding === "gzip") return { encoding: "gzip", body: gzipSync(html) } as const;
  return { encoding: null, body: html } as const;
}
