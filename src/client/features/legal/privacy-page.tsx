import { useSiteConfig } from "#client/lib/site-config.ts";
import { LegalPage } from "./legal-page.tsx";

export default function PrivacyPage() {
  const { supportEmail } = useSiteConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      sections={[
        {
          heading: "Information we collect",
          body: (
            <p>
              Your name and e-mail address when you create an account; your course progress, quiz attempts and
              certificates; order records when you buy a course (card numbers are handled by our payment provider and
              never stored by us); and basic technical logs such as IP address for security.
            </p>
          ),
        },
        {
          heading: "How we use information",
          body: (
            <p>
              To give you access to your courses, record your progress, issue and verify certificates, process payments
              and refunds, answer support requests and keep the service secure.
            </p>
          ),
        },
        {
          heading: "Sharing",
          body: (
            <p>
              We do not sell your information. We share it only with services that run the academy for us (payment
              processing and e-mail delivery), when the law requires it, and on a public certificate verification page,
              which shows only your name, the course and the certificate dates and status.
            </p>
          ),
        },
        {
          heading: "Security",
          body: (
            <p>
              Passwords are stored as salted hashes, sessions use secure HTTP-only cookies, and access to learner
              records is limited to you and our administrators.
            </p>
          ),
        },
        {
          heading: "Your rights",
          body: (
            <p>
              You may ask for a copy of your information, correct your name from your profile, or ask us to delete your
              account by writing to support.
            </p>
          ),
        },
        {
          heading: "Cookies",
          body: (
            <p>We use one essential cookie to keep you signed in. We do not use advertising or tracking cookies.</p>
          ),
        },
        {
          heading: "Children",
          body: (
            <p>
              The academy is for adults. You must be 18 or older to create an account, and we do not knowingly collect
              information from children.
            </p>
          ),
        },
        {
          heading: "Changes",
          body: (
            <p>
              If we change this policy we will update the date above and, for significant changes, tell you by e-mail.
            </p>
          ),
        },
        {
          heading: "Contact",
          body: (
            <p>
              Privacy questions:{" "}
              <a className="text-brand-700 underline" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
