import type { FastifyInstance } from "fastify";
import type { PaymentProvider } from "../../payments/provider.ts";
import type { SandboxProvider } from "../../payments/sandbox.ts";
import { fulfilPayment } from "./fulfilment.ts";
import { reconcilePayments } from "./reconciliation.ts";

/**
 * Periodic payment work of this app server: the sandbox settles 'processing' payments, and the
 * reconciliation sweep fulfils payments whose confirmation never arrived. Both are safe to run on
 * every server at once (guarded updates).
 */
export function startPaymentTimers(app: FastifyInstance, provider: PaymentProvider, reconcileSeconds: number) {
  const db = app.deps.database.db;
  const deps = { db, provider };
  const timers: NodeJS.Timeout[] = [];
  if (provider.name === "sandbox") {
    const sandbox = provider as SandboxProvider;
    timers.push(
      setInterval(() => {
        sandbox
          .settleDuePayments()
          .then((ids) => Promise.all(ids.map((id) => fulfilPayment(deps, id))))
          .catch((error) => app.log.error({ err: error }, "sandbox settling failed"));
      }, 1000),
    );
  }
  if (reconcileSeconds > 0) {
    let running = false;
    timers.push(
      setInterval(() => {
        if (running) return;
        running = true;
        reconcilePayments(deps, {
          onError: (error, orderId) => app.log.warn({ err: error, orderId }, "reconciliation: order not settled"),
        })
          .then((report) => {
            if (report.fulfilled || report.refundsRetried) app.log.info(report, "reconciliation sweep");
          })
          .catch((error) => app.log.error({ err: error }, "reconciliation sweep failed"))
          .finally(() => {
            running = false;
          });
      }, reconcileSeconds * 1000),
    );
  }
  for (const timer of timers) timer.unref();
  app.addHook("onClose", async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
