import type { FastifyInstance } from "fastify";
import type { PaymentProvider } from "../../payments/provider.ts";
import type { SandboxProvider } from "../../payments/sandbox.ts";
import { fulfilPayment } from "./fulfilment.ts";
import { reconcilePayments } from "./reconciliation.ts";

/**
 * Periodic payment work, as jobs that run in one app instance each turn: the sandbox settles
 * 'processing' payments, and the reconciliation sweep fulfils payments whose confirmation never
 * arrived. Both would also be safe on every server at once (guarded updates); once is cheaper.
 */
export function registerPaymentJobs(app: FastifyInstance, provider: PaymentProvider, reconcileSeconds: number) {
  const { database, jobs } = app.deps;
  const deps = { db: database.db, provider };
  if (provider.name === "sandbox") {
    const sandbox = provider as SandboxProvider;
    jobs.every("sandbox-settle", 1000, async () => {
      const ids = await sandbox.settleDuePayments();
      await Promise.all(ids.map((id) => fulfilPayment(deps, id)));
    });
  }
  if (reconcileSeconds > 0) {
    jobs.every("payment-reconciliation", reconcileSeconds * 1000, async () => {
      const report = await reconcilePayments(deps, {
        onError: (error, orderId) => app.log.warn({ err: error, orderId }, "reconciliation: order not settled"),
      });
      if (report.fulfilled || report.refundsRetried) app.log.info(report, "reconciliation sweep");
    });
  }
}
