import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const verifyEmail = defineTemplate<{ url: string }>({
  subject: (_data, site) => `Confirm your ${site.name} e-mail address`,
  body: ({ url }, site) => (
    <EmailLayout
      site={site}
      preview="Confirm your e-mail address within 24 hours."
      heading="Confirm your e-mail address"
      action={{ label: "Confirm my address", url }}
    >
      <P>Hello,</P>
      <P>Please confirm that this is your e-mail address by opening the link below within 24 hours.</P>
      <P>If you did not create an account, ignore this message.</P>
    </EmailLayout>
  ),
  sample: (site) => ({ url: `${site.appUrl}/api/auth/verify-email?token=sample-token&callbackURL=/` }),
});
