import { useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { AdminLayout, Pager, tableClass, tdClass, thClass } from "./admin-layout.tsx";
import { useAdminOrders, useRefundOrder } from "./api.ts";

export default function AdminOrdersPage() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<string | null>(null);
  const orders = useAdminOrders(q, page);
  const toast = useToast();
  const refundOrder = useRefundOrder();

  const refund = async (id: string) => {
    try {
      await refundOrder.mutateAsync(id);
      toast({
        title: "Order Refunded",
        description: "The learner's access to the course has ended and its certificate, if any, is revoked.",
      });
    } catch (error) {
      toast({
        title: "Refund Failed",
        description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
        variant: "destructive",
      });
    } finally {
      setConfirming(null);
    }
  };

  return (
    <AdminLayout title="Orders">
      <TextField
        label="Search by e-mail, course, coupon or payment id"
        type="search"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setPage(1);
        }}
        className="max-w-md"
      />
      <div className="mt-4 overflow-x-auto">
        {orders.isPending ? (
          <Skeleton className="h-40" />
        ) : (
          <table className={tableClass}>
            <caption className="sr-only">Orders</caption>
            <thead>
              <tr>
                <th className={thClass}>Date</th>
                <th className={thClass}>Learner</th>
                <th className={thClass}>Course</th>
                <th className={thClass}>Paid</th>
                <th className={thClass}>Coupon</th>
                <th className={thClass}>Status</th>
                <th className={thClass}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(orders.data?.items ?? []).map((o) => (
                <tr key={o.id} data-testid={`order-${o.id}`}>
                  <td className={tdClass}>{formatLongDate(o.createdAt)}</td>
                  <td className={tdClass}>
                    {o.userName}
                    <span className="block text-xs text-muted">{o.userEmail}</span>
                  </td>
                  <td className={tdClass}>{o.courseId}</td>
                  <td className={tdClass}>
                    {formatPrice(o.amount)}
                    {o.amount !== o.originalAmount && (
                      <span className="block text-xs text-muted">of {formatPrice(o.originalAmount)}</span>
                    )}
                  </td>
                  <td className={tdClass}>{o.couponCode ?? "-"}</td>
                  <td className={tdClass}>
                    {o.status === "refunded"
                      ? `Refunded ${formatLongDate(o.refundedAt)}`
                      : o.status === "refunding"
                        ? "Refund under way"
                        : "Paid"}
                  </td>
                  <td className={tdClass}>
                    {o.status === "paid" &&
                      (o.refundable ? (
                        confirming === o.id ? (
                          <span className="flex flex-col gap-2">
                            <span className="text-xs text-slate-800" data-testid="refund-consequences">
                              Refund {formatPrice(o.amount)} to {o.userEmail}: their access to the course ends and its
                              certificate is revoked.
                            </span>
                            <span className="flex gap-2">
                              <Button size="sm" variant="danger" onClick={() => void refund(o.id)}>
                                Confirm refund
                              </Button>
                              <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                                Cancel
                              </Button>
                            </span>
                          </span>
                        ) : (
                          <Button size="sm" variant="secondary" onClick={() => setConfirming(o.id)}>
                            Refund<span className="sr-only"> order of {o.userEmail}</span>
                          </Button>
                        )
                      ) : (
                        <span className="text-xs text-muted">Past the 7-day refund window</span>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {orders.data && (
        <Pager page={orders.data.page} pageSize={orders.data.pageSize} total={orders.data.total} onPage={setPage} />
      )}
    </AdminLayout>
  );
}
