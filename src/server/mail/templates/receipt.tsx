import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

/** The e-mail receipt after a payment, a free claim or a refund (docs/decisions/0025). */
export const receipt = defineTemplate<{
  kind: "payment" | "free" | "refund";
  orderId: string;
  courseTitle: string;
  /** Formatted amounts ("$20.00"). */
  amount: string;
  originalAmount: string;
  couponCode: string | null;
  /** en-US long date of the payment or refund. */
  date: string;
}>({
  subject: (d, site) =>
    d.kind === "refund"
      ? `Refund receipt: ${d.courseTitle} (${site.name})`
      : `Receipt for ${d.courseTitle} (${site.name})`,
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={d.kind === "refund" ? `${d.amount} refunded for ${d.courseTitle}.` : `${d.amount} for ${d.courseTitle}.`}
      heading={d.kind === "refund" ? "Refund receipt" : d.kind === "free" ? "Receipt for your free course" : "Receipt"}
      action={{ label: "View and print the receipt", url: `${site.appUrl}/purchases/${d.orderId}` }}
    >
      <P>
        {d.kind === "refund"
          ? `Your payment for ${d.courseTitle} has been refunded; access to the course has ended.`
          : d.kind === "free"
            ? `You claimed ${d.courseTitle} free with a coupon. Welcome!`
            : `Thank you for buying ${d.courseTitle}. You now have lifetime access.`}
      </P>
      <P>Order number: {d.orderId}</P>
      <P>Course: {d.courseTitle}</P>
      <P>Date: {d.date}</P>
      <P>Price: {d.originalAmount}</P>
      <P>Coupon: {d.couponCode ?? "none"}</P>
      <P>
        {d.kind === "refund" ? "Refunded" : "Paid"}: {d.amount}
      </P>
      <P>
        Questions about this order? Write to {site.supportEmail} with the order number.
        {site.postalAddress ? ` ${site.name}, ${site.postalAddress}.` : ""}
      </P>
    </EmailLayout>
  ),
  sample: () => ({
    kind: "payment",
    orderId: "3f1c2a9e-5b7d-4c1e-9a0b-2d6e8f4a1c3b",
    courseTitle: "Nutrition Coach Certification",
    amount: "$16.00",
    originalAmount: "$20.00",
    couponCode: "SPRING20",
    date: "November 25, 2026",
  }),
});
