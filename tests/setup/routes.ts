import type { FastifyInstance } from "fastify";

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app registered, read from Fastify's own route tree (`printRoutes`), so a test that
 * walks them cannot miss a route added later. HEAD (added for each GET) is left out.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^(.*?)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    const [, indent, segment, methods = ""] = match ?? [];
    if (indent === undefined || segment === undefined) continue;
    const depth = indent.length / 4;
    const url = (depth > 0 ? (prefixes[depth - 1] ?? "") : "") + segment;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of methods.split(", ").filter(Boolean)) {
      if (method !== "HEAD") routes.push({ method, url });
    }
  }
  return routes;
}
