import { useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { SearchableAdminTable, useAdminSearch } from "./admin-table.tsx";
import { useAdminOrders, useRefundOrder } from "./api.ts";
import { useInlineFocus } from "./use-inline-focus.ts";

type Order = NonNullable<ReturnType<typeof useAdminOrders>["data"]>["items"][number];

const statusText = (o: Order) =>
  o.status === "refunded"
    ? `Refunded ${formatLongDate(o.refundedAt)}`
    : o.status === "refunding"
      ? "Refund under way"
      : "Paid";

/**
 * Refund, then a confirmation that says what the refund does: focus goes to Confirm refund, whose
 * description is that warning (so it is read out), back to Refund on Cancel, and to the cell after.
 */
function RefundAction({
  order: o,
  open,
  onOpen,
  onRefund,
}: {
  order: Order;
  open: boolean;
  onOpen: (open: boolean) => void;
  onRefund: (id: string, focusCell: () => void) => Promise<void>;
}) {
  const triggerId = `refund-${o.id}`;
  const confirmId = `confirm-refund-${o.id}`;
  const keepFocusInCell = useInlineFocus(open, triggerId, confirmId);
  if (!open)
    return (
      <Button id={triggerId} size="sm" variant="secondary" onClick={() => onOpen(true)}>
        Refund<span className="sr-only"> order of {o.userEmail}</span>
      </Button>
    );
  return (
    <span className="flex flex-col gap-2">
      <span id={`${confirmId}-warning`} className="text-xs text-slate-800" data-testid="refund-consequences">
        Refund {formatPrice(o.amount)} to {o.userEmail}: their access to the course ends and its certificate is revoked.
      </span>
      <span className="flex gap-2">
        <Button
          id={confirmId}
          aria-describedby={`${confirmId}-warning`}
          size="sm"
          variant="danger"
          onClick={() => void onRefund(o.id, keepFocusInCell())}
        >
          Confirm refund
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onOpen(false)}>
          Cancel
        </Button>
      </span>
    </span>
  );
}

export default function AdminOrdersPage() {
  const search = useAdminSearch();
  const [confirming, setConfirming] = useState<string | null>(null);
  const orders = useAdminOrders(search.q, search.page);
  const toast = useToast();
  const refundOrder = useRefundOrder();

  const refund = async (id: string, focusCell: () => void) => {
    try {
      await refundOrder.mutateAsync(id);
      focusCell();
      toast({
        title: "Order Refunded",
        description: "The learner's access to the course has ended and its certificate, if any, is revoked.",
      });
    } catch (error) {
      toast({
        title: "Refund Failed",
        description: refusal(error),
        variant: "destructive",
      });
    } finally {
      setConfirming(null);
    }
  };

  const actions = (o: Order) => {
    if (o.status !== "paid") return null;
    if (o.amount === 0) return <span className="text-xs text-muted">Free claim: nothing to refund</span>;
    if (!o.refundable) return <span className="text-xs text-muted">Past the 7-day refund window</span>;
    return (
      <RefundAction
        order={o}
        open={confirming === o.id}
        onOpen={(open) => setConfirming(open ? o.id : null)}
        onRefund={refund}
      />
    );
  };

  return (
    <AdminLayout title="Orders">
      <SearchableAdminTable<Order>
        searchLabel="Search by e-mail, course, coupon or payment id"
        search={search}
        data={orders.data}
        caption="Orders"
        empty="No orders match."
        rowKey={(o) => o.id}
        rowTestId={(o) => `order-${o.id}`}
        columns={[
          { header: "Date", cell: (o) => formatLongDate(o.createdAt) },
          {
            header: "Learner",
            cell: (o) => (
              <>
                {o.userName}
                <span className="block text-xs text-muted">{o.userEmail}</span>
              </>
            ),
          },
          { header: "Course", cell: (o) => o.courseTitle },
          {
            header: "Paid",
            cell: (o) => (
              <>
                {formatPrice(o.amount)}
                {o.amount !== o.originalAmount && (
                  <span className="block text-xs text-muted">of {formatPrice(o.originalAmount)}</span>
                )}
              </>
            ),
          },
          { header: "Coupon", cell: (o) => o.couponCode ?? "-" },
          { header: "Status", cell: statusText },
          { header: "Actions", hideHeader: true, cell: actions },
        ]}
      />
    </AdminLayout>
  );
}
