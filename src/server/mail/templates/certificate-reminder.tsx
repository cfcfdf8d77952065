import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export interface CertificateReminderData {
  firstName: string;
  courseTitle: string;
  certificateId: string;
  /** "90-days", "30-days", "7-days" or "expired". */
  kind: string;
  /** The expiry date, written out (en-US long). */
  expiresAt: string;
  /** Whole days from the sweep to the expiry (the band is only the threshold that was crossed). */
  daysLeft?: number;
  /** Until when a lapsed certificate can still be renewed (en-US long). */
  renewalClosesAt: string;
  renewUrl: string;
  unsubscribeUrl: string;
  /** Where a mail client POSTs its one-click unsubscribe (the List-Unsubscribe header). */
  oneClickUnsubscribeUrl: string;
}

const daysLeftOf = (d: CertificateReminderData) => d.daysLeft ?? Number.parseInt(d.kind, 10);
const inDays = (d: CertificateReminderData) => {
  const days = daysLeftOf(d);
  return days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
};

export const certificateReminder = defineTemplate<CertificateReminderData>({
  subject: (d) =>
    d.kind === "expired"
      ? `Your ${d.courseTitle} certificate has expired: renew it until ${d.renewalClosesAt}`
      : `Your ${d.courseTitle} certificate expires ${inDays(d)}`,
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={
        d.kind === "expired"
          ? `It expired on ${d.expiresAt}.`
          : `It expires on ${d.expiresAt}. Renew it with a short exam.`
      }
      heading={d.kind === "expired" ? "Your certificate has expired" : "Your certificate expires soon"}
      action={{ label: "Renew my certificate", url: d.renewUrl }}
      unsubscribeUrl={d.unsubscribeUrl}
    >
      <P>Hello {d.firstName},</P>
      {d.kind === "expired" ? (
        <P>
          Your {d.courseTitle} certificate ({d.certificateId}) expired on {d.expiresAt}. You can still renew it until{" "}
          {d.renewalClosesAt} by passing the recertification exam; it is then valid again for another full period.
        </P>
      ) : (
        <P>
          Your {d.courseTitle} certificate ({d.certificateId}) expires on {d.expiresAt}, {inDays(d)}. Renew it by
          passing the timed recertification exam, free of charge: your new validity period starts on the old expiry
          date, so renewing early loses nothing.
        </P>
      )}
      <P>Open My Certificates and choose Renew, or use the button below.</P>
    </EmailLayout>
  ),
  unsubscribeUrl: (d) => d.oneClickUnsubscribeUrl,
  sample: (site) => ({
    firstName: "Amara",
    courseTitle: "Nutrition Coach Certification",
    certificateId: "HWA-ABCDEFGHIJKLMNOP",
    kind: "30-days",
    expiresAt: "December 25, 2026",
    daysLeft: 22,
    renewalClosesAt: "December 25, 2027",
    renewUrl: `${site.appUrl}/certificates`,
    unsubscribeUrl: `${site.appUrl}/unsubscribe?token=sample.token`,
    oneClickUnsubscribeUrl: `${site.appUrl}/api/email/unsubscribe?token=sample.token`,
  }),
});
