import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const resetPassword = defineTemplate<{ url: string }>({
  subject: (_data, site) => `Reset your ${site.name} password`,
  body: ({ url }, site) => (
    <EmailLayout
      site={site}
      preview="Open the link within one hour to choose a new password."
      heading="Reset your password"
      action={{ label: "Choose a new password", url }}
    >
      <P>Hello,</P>
      <P>
        Someone asked to reset the password of your {site.name} account. Open the link below within one hour to choose a
        new password.
      </P>
      <P>If it was not you, ignore this message; your password stays as it is.</P>
    </EmailLayout>
  ),
  sample: (site) => ({ url: `${site.appUrl}/api/auth/reset-password/sample-token?callbackURL=/reset-password` }),
});
