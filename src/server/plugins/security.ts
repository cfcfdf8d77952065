import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";

/** No inline script anywhere; Stripe's own origins only when Stripe takes the payments. */
function contentSecurityPolicy(stripe: boolean): string {
  const s = (list: string) => (stripe ? ` ${list}` : "");
  return [
    "default-src 'self'",
    `script-src 'self'${s("https://js.stripe.com")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // Lesson videos: our own files, or a file at an https URL a course names (decision 0029).
    "media-src 'self' https:",
    `connect-src 'self'${s("https://api.stripe.com")}`,
    `frame-src ${stripe ? "https://js.stripe.com https://hooks.stripe.com" : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Security headers on every response, and refusal of state-changing requests from other origins. */
export function registerSecurity(app: FastifyInstance, config: Config) {
  const CSP = contentSecurityPolicy(config.payments.provider === "stripe");
  const allowedOrigins = new Set([new URL(config.appUrl).origin]);
  if (config.env === "development") allowedOrigins.add("http://localhost:5173");

  // Computed once; one synchronous hook (an async hook costs a promise and a tick per request).
  const headers: Record<string, string> = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
  };
  if (config.appUrl.startsWith("https://"))
    headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";

  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers);
    // An API answer to a request that carries a cookie may be personal (who is signed in, receipts,
    // progress): no cache along the way or on the device keeps it. A route with its own policy sets it
    // later and wins (the course page's "private, no-cache", a PDF's download headers).
    if (request.headers.cookie && request.url.startsWith("/api/")) reply.header("cache-control", "private, no-store");
    // Every state-changing request, whatever its path: the raw URL may be percent-encoded (`/%61pi/...`)
    // while the router decodes it, so the only exemption is by the route the router matched.
    if (SAFE_METHODS.has(request.method)) return done();
    // Webhooks are authenticated by their signature, not by the browser's origin.
    if (request.routeOptions.url === "/api/stripe/webhook") return done();
    // So is the one-click unsubscribe, which mail providers POST from their own servers (RFC 8058).
    if (request.routeOptions.url === "/api/email/unsubscribe") return done();
    const origin = request.headers.origin;
    const site = request.headers["sec-fetch-site"];
    if ((origin && !allowedOrigins.has(origin)) || site === "cross-site") {
      reply.status(403).send({ message: "Cross-origin requests are not allowed." });
      return;
    }
    done();
  });
}
