import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The encodings a request accepts (names lower-cased), leaving out any it refuses with q=0. */
function acceptedEncodings(header: string | undefined) {
  const accepted = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/**
 * A page (the app shell, painted or not) compressed for the request, as @fastify/compress does for
 * routes: its hooks attach to routes only, and pages come from the not-found handler (decision
 * 0046). Brotli at quality 4 (the plugin's default), else gzip, else as it is.
 */
export function encodePage(html: string, acceptEncoding: string | undefined) {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.has("br"))
    return {
      encoding: "br",
      body: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    } as const;
  if (accepted.has("gzip")) return { encoding: "gzip", body: gzipSync(html) } as const;
  return { encoding: null, body: html } as const;
}
