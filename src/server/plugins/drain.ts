import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** Called on SIGTERM: /readyz answers 503 from now on, and every response closes its connection. */
    startDraining(): void;
    isDraining(): boolean;
  }
}

/**
 * Shutdown that drains (docs/deploy.md): once draining, every response, those of requests already in
 * flight included, says `Connection: close`, so no kept-alive connection outlives its current response
 * and keeps the process alive; the proxy learns from /readyz to send nothing new.
 */
export function registerDrain(app: FastifyInstance) {
  let draining = false;
  app.decorate("startDraining", () => {
    draining = true;
    // Connections idle between requests have no response to carry the header: close them now.
    app.server.closeIdleConnections?.();
  });
  app.decorate("isDraining", () => draining);
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
}
