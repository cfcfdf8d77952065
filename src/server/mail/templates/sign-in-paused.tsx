import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

export const signInPaused = defineTemplate<{ failures: number; minutes: number; signInUrl: string }>({
  subject: (_data, site) => `Sign-in to your ${site.name} account is paused`,
  body: ({ failures, minutes, signInUrl }, site) => (
    <EmailLayout
      site={site}
      preview={`${failures} wrong passwords: sign-in is paused for ${minutes} minutes.`}
      heading="Sign-in to your account is paused"
      action={{ label: "Go to sign-in", url: signInUrl }}
    >
      <P>Hello,</P>
      <P>
        Someone tried to sign in to your {site.name} account with a wrong password {failures} times within {minutes}{" "}
        minutes, so sign-in to it is paused for {minutes} minutes.
      </P>
      <P>If it was you, wait and try again, or use 'Forgot your password' on the sign-in page.</P>
      <P>
        If it was not you, your password kept the account safe. Nothing else needs doing, though a longer password keeps
        it safer still.
      </P>
    </EmailLayout>
  ),
  sample: (site) => ({ failures: 10, minutes: 15, signInUrl: `${site.appUrl}/login` }),
});
