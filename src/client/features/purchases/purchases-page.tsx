import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { usePurchases } from "#client/lib/purchases.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { STATUS_LABELS } from "./api.ts";

export default function PurchasesPage() {
  useDocumentMeta({
    title: `Purchases | ${BRAND_NAME}`,
    description: `Your ${BRAND_NAME} orders, with a printable receipt for each payment, free claim and refund.`,
  });
  const purchases = usePurchases();
  return (
    <PageContainer className="max-w-4xl">
      <h1 className="font-serif text-3xl font-bold">Purchases</h1>
      <p className="mt-2 text-muted">Every order, with a receipt you can print. Receipts are also e-mailed to you.</p>
      {purchases.isPending ? (
        <Skeleton className="mt-6 h-40" />
      ) : purchases.isError ? (
        <p role="alert" className="mt-6 text-danger">
          Your purchases could not be loaded. Please try again later.
        </p>
      ) : purchases.data.length === 0 ? (
        <Card className="mt-6 p-8 text-center">
          <h2 className="text-lg font-semibold">No purchases yet</h2>
          <Link to={paths.home} className={buttonClasses("primary", "md", "mt-4")}>
            Browse Courses
          </Link>
        </Card>
      ) : (
        <ul className="mt-6 space-y-4">
          {purchases.data.map((p) => (
            <li key={p.orderId}>
              <Card
                className="flex flex-wrap items-center justify-between gap-4 p-5"
                data-testid={`purchase-${p.courseId}`}
              >
                <div className="min-w-0">
                  <h2 className="font-semibold">{p.courseTitle}</h2>
                  <p className="text-sm text-muted">
                    {formatLongDate(p.paidAt)} · {formatPrice(p.amount)}
                    {p.couponCode && ` · coupon ${p.couponCode}`} · {STATUS_LABELS[p.status]}
                  </p>
                  <p className="text-xs break-all text-muted">Order number {p.orderId}</p>
                </div>
                <Link to={paths.receipt(p.orderId)} className={buttonClasses("secondary", "sm")}>
                  Receipt<span className="sr-only">: {p.courseTitle}</span>
                </Link>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </PageContainer>
  );
}
