import { EmailLayout, P } from "../email-layout.tsx";
import { defineTemplate } from "../email-template.ts";

/** What changed on the account's sign-in (docs/decisions/0054). */
export type SecurityEvent =
  | "new-device"
  | "two-factor-on"
  | "two-factor-off"
  | "passkey-added"
  | "passkey-removed"
  | "password-changed"
  | "backup-code-used"
  | "backup-codes-renewed"
  | "factors-reset"
  | "codes-paused"
  | "password-sign-in-off"
  | "password-sign-in-on";

const WHAT: Record<SecurityEvent, { subject: string; line: (detail: string) => string }> = {
  "new-device": {
    subject: "New sign-in to your account",
    line: (d) => `Your account was just signed in to from a device it had not used before${d ? ` (${d})` : ""}.`,
  },
  "two-factor-on": {
    subject: "Two-factor sign-in is on",
    line: () => "Two-factor sign-in with an authenticator app was turned on for your account.",
  },
  "two-factor-off": {
    subject: "Two-factor sign-in is off",
    line: () => "Two-factor sign-in was turned off for your account.",
  },
  "passkey-added": {
    subject: "A passkey was added to your account",
    line: (d) => `A passkey${d ? ` named “${d}”` : ""} was added to your account.`,
  },
  "passkey-removed": {
    subject: "A passkey was removed from your account",
    line: (d) => `A passkey${d ? ` named “${d}”` : ""} was removed from your account.`,
  },
  "password-changed": {
    subject: "Your password was changed",
    line: () => "The password of your account was just changed.",
  },
  "backup-code-used": {
    subject: "A backup code was used",
    line: (d) => `A backup code was used to sign in to your account${d ? `; ${d}` : ""}.`,
  },
  "backup-codes-renewed": {
    subject: "New backup codes",
    line: () => "New backup codes were made for your account; the old ones no longer work.",
  },
  "factors-reset": {
    subject: "Your second factors were reset",
    line: (d) =>
      `Your two-factor sign-in and passkeys were removed${d ? ` by ${d}` : ""}. Set up a new one from your profile the next time you sign in.`,
  },
  "codes-paused": {
    subject: "Codes paused after wrong tries",
    line: (d) =>
      `${d} wrong two-factor codes were entered for your account, so codes are paused for 15 minutes. Whoever entered them may know your password.`,
  },
  "password-sign-in-off": {
    subject: "Password sign-in is off",
    line: () => "Signing in with the password was turned off for your account: it now signs in with a passkey only.",
  },
  "password-sign-in-on": {
    subject: "Password sign-in is on",
    line: () => "Signing in with the password was turned back on for your account.",
  },
};

export const accountSecurity = defineTemplate<{ event: SecurityEvent; detail: string; profileUrl: string }>({
  subject: ({ event }) => WHAT[event].subject,
  body: ({ event, detail, profileUrl }, site) => (
    <EmailLayout
      site={site}
      preview={WHAT[event].line(detail)}
      heading={WHAT[event].subject}
      action={{ label: "Review your sign-in settings", url: profileUrl }}
    >
      <P>Hello,</P>
      <P>{WHAT[event].line(detail)}</P>
      <P>If this was you, nothing needs doing.</P>
      <P>
        If it was not you, reset your password at once (“Forgot your password?” on the sign-in page), then open your
        profile’s Security section: sign out every other session, and check your two-factor sign-in and passkeys. If you
        cannot sign in any more, reply to this e-mail or contact {site.supportEmail}.
      </P>
    </EmailLayout>
  ),
  sample: (site) => ({ event: "new-device", detail: "Firefox on Linux", profileUrl: `${site.appUrl}/profile` }),
});
