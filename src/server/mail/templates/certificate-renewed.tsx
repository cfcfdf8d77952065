import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const certificateRenewed = defineTemplate<{
  firstName: string;
  courseTitle: string;
  certificateId: string;
  expiresAt: string;
  verifyUrl: string;
}>({
  subject: (d) => `Your ${d.courseTitle} certificate is renewed until ${d.expiresAt}`,
  body: (d, site) => (
    <EmailLayout
      site={site}
      preview={`Valid until ${d.expiresAt}. Your credential was re-issued with the new dates.`}
      heading="Your certificate is renewed"
      action={{ label: "See the verification page", url: d.verifyUrl }}
    >
      <P>Hello {d.firstName},</P>
      <P>
        Congratulations: you passed the recertification exam. Your {d.courseTitle} certificate ({d.certificateId}) is
        now valid until {d.expiresAt}.
      </P>
      <P>
        Your digital credential was re-issued with the new dates; download it again from the verification page. The
        earlier credential is marked as superseded, not revoked.
      </P>
    </EmailLayout>
  ),
  sample: (site) => ({
    firstName: "Amara",
    courseTitle: "Nutrition Coach Certification",
    certificateId: "HWA-ABCDEFGHIJKLMNOP",
    expiresAt: "December 25, 2028",
    verifyUrl: `${site.appUrl}/verify/HWA-ABCDEFGHIJKLMNOP`,
  }),
});
