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
 *
 * Connections idle between requests stay open until the listener closes (after
 * SHUTDOWN_DELAY_SECONDS): a request a proxy sends on one meanwhile is answered, with
 * `Connection: close`, instead of finding its connection reset (behind nginx's upstream keep-alive a
 * reset POST is a 502). The proxy closes its idle connections sooner than that delay (deploy.md).
 */
export function registerDrain(app: FastifyInstance) {
  let draining = false;
  app.decorate("startDraining", () => {
    draining = true;
  });
  app.decorate("isDraining", () => draining);
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
}
