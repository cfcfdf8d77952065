import { Printer } from "lucide-react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useSiteConfig } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";
import { STATUS_LABELS, usePurchase } from "./api.ts";

/** One order's receipt, laid out to print on its own (the header, footer and buttons are not printed). */
export default function ReceiptPage() {
  const { orderId = "" } = useParams();
  const purchase = usePurchase(orderId);
  const site = useSiteConfig();
  useDocumentMeta({
    title: `Receipt | ${BRAND_NAME}`,
    description: `A receipt for an order at ${BRAND_NAME}.`,
  });
  if (purchase.isPending)
    return (
      <PageContainer className="max-w-2xl">
        <Skeleton className="h-96" />
      </PageContainer>
    );
  if (purchase.isError)
    return (
      <PageContainer className="max-w-2xl py-16 text-center">
        <h1 className="text-3xl font-bold">Receipt Not Found</h1>
        <Link to={paths.purchases} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Purchases
        </Link>
      </PageContainer>
    );
  const p = purchase.data;
  const rows: [string, string][] = [
    ["Order number", p.orderId],
    ["Course", p.courseTitle],
    ["Date", formatLongDate(p.paidAt)],
    ["Price", formatPrice(p.originalAmount)],
    ["Coupon", p.couponCode ?? "None"],
    [p.kind === "free" ? "Paid (free with coupon)" : "Paid by card", formatPrice(p.amount)],
    ["Status", STATUS_LABELS[p.status]],
    ...(p.refundedAt
      ? ([["Refunded", `${formatPrice(p.amount)} on ${formatLongDate(p.refundedAt)}`]] as [string, string][])
      : []),
  ];
  return (
    <PageContainer className="max-w-2xl">
      <div className="mb-4 flex flex-wrap justify-between gap-3 print:hidden">
        <Link to={paths.purchases} className="text-sm text-muted hover:underline">
          ← Back to Purchases
        </Link>
        <Button size="sm" variant="secondary" onClick={() => window.print()}>
          <Printer size={16} aria-hidden="true" />
          Print receipt
        </Button>
      </div>
      <Card className="p-6 sm:p-8 print:border-0 print:shadow-none" data-testid="receipt">
        <p className="text-xs font-bold tracking-[0.2em] text-brand-700 uppercase">{BRAND_NAME}</p>
        <h1 className="mt-2 font-serif text-3xl font-bold">Receipt</h1>
        <dl className="mt-6 divide-y divide-line">
          {rows.map(([label, value]) => (
            <div key={label} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
              <dt className="text-muted">{label}</dt>
              <dd className="font-medium break-all">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-6 text-sm text-muted">
          Questions about this order? Write to{" "}
          <a href={`mailto:${site.supportEmail}`} className="underline">
            {site.supportEmail}
          </a>{" "}
          with the order number.
        </p>
      </Card>
    </PageContainer>
  );
}
