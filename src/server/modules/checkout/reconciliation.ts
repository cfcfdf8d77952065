import { settleWaitingOrder } from "./checkout.service.ts";
import type { FulfilmentDeps } from "./fulfilment.ts";
import { listCreatedOrders, listStuckRefunds } from "./orders.repository.ts";
import { sendRefund } from "./refunds.ts";

const LOOK_BACK_MS = 3 * 24 * 3600 * 1000;
/** A refund left 'refunding' this long was cut off (crash, provider error) and is retried. */
const STUCK_REFUND_MS = 60 * 1000;

export interface ReconcileReport {
  checked: number;
  fulfilled: number;
  refundsRetried: number;
  failed: number;
}

/**
 * The sweep behind "nothing paid stays unfulfilled": asks the provider about every recent order
 * still waiting for its payment and settles the paid ones through the one fulfilment path, then
 * finishes refunds that were cut off. Safe to run on every app server at once.
 */
export async function reconcilePayments(
  deps: FulfilmentDeps,
  options: { now?: Date; onError?: (error: unknown, orderId: string) => void } = {},
): Promise<ReconcileReport> {
  const now = options.now ?? new Date();
  const report: ReconcileReport = { checked: 0, fulfilled: 0, refundsRetried: 0, failed: 0 };
  const waiting = await listCreatedOrders(deps.db, {
    since: new Date(now.getTime() - LOOK_BACK_MS).toISOString(),
    limit: 500,
  });
  for (const order of waiting.filter((o) => o.provider === deps.provider.name)) {
    report.checked++;
    try {
      const result = await settleWaitingOrder(deps, order);
      if (result?.fulfilled) report.fulfilled++;
    } catch (error) {
      report.failed++;
      options.onError?.(error, order.id);
    }
  }
  const stuck = await listStuckRefunds(deps.db, {
    before: new Date(now.getTime() - STUCK_REFUND_MS).toISOString(),
    limit: 100,
  });
  for (const order of stuck) {
    try {
      await sendRefund(deps, order);
      report.refundsRetried++;
    } catch (error) {
      report.failed++;
      options.onError?.(error, order.id);
    }
  }
  return report;
}
