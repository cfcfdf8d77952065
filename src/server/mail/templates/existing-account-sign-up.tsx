import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const existingAccountSignUp = defineTemplate<{ signInUrl: string }>({
  subject: (_data, site) => `Someone tried to create a ${site.name} account with your e-mail`,
  body: ({ signInUrl }, site) => (
    <EmailLayout
      site={site}
      preview="This address already has an account: sign in instead."
      heading="Someone tried to sign up with your address"
      action={{ label: "Sign in", url: signInUrl }}
    >
      <P>Hello,</P>
      <P>
        Someone tried to create a new {site.name} account with this e-mail address, which already has one. If it was
        you, sign in instead (or reset your password from the sign-in page).
      </P>
      <P>If it was not you, you need do nothing: your account is unchanged.</P>
    </EmailLayout>
  ),
  sample: (site) => ({ signInUrl: `${site.appUrl}/login` }),
});
