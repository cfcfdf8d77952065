import { useSiteConfig } from "#client/lib/site-config.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import { LegalPage } from "./legal-page.tsx";

export default function TermsPage() {
  const { supportEmail } = useSiteConfig();
  return (
    <LegalPage
      title="Terms of Service"
      sections={[
        {
          heading: "Agreement",
          body: (
            <p>
              By creating an account or buying a course from {BRAND_NAME} you agree to these terms. You must be at least
              18 years old to use the academy.
            </p>
          ),
        },
        {
          heading: "Enrollment and certification",
          body: (
            <>
              <p>
                Enrollment gives you lifetime access to the course you bought or were enrolled in. Certification
                requires completing all modules, passing each module quiz with at least {PASS_MARK}%, and completing any
                practical assessments the course sets.
              </p>
              <p>
                Certificates are educational certificates of completion. They are not a licence to practise medicine,
                dietetics, psychology or any other regulated profession, and they carry an expiry date.
              </p>
            </>
          ),
        },
        {
          heading: "Payment and refunds",
          body: (
            <p>
              Prices are shown in US dollars and charged once per course. You may ask for a refund within 7 days of
              enrollment; after 7 days enrollment is non-refundable. A refund ends access to the course. Promotional
              codes cannot be combined with other offers.
            </p>
          ),
        },
        {
          heading: "Intellectual property",
          body: (
            <p>
              Course text, quizzes, images and certificates belong to {BRAND_NAME}. You may use them for your own
              learning, but not copy, resell or republish them.
            </p>
          ),
        },
        {
          heading: "Professional conduct",
          body: (
            <p>
              Coaches who complete our courses educate and support clients. They do not diagnose, treat, prescribe or
              claim to heal disease, and they refer clients to qualified healthcare professionals when a concern is
              medical.
            </p>
          ),
        },
        {
          heading: "Liability",
          body: (
            <p>
              Our courses are for educational purposes only and are not medical advice. To the extent the law allows,
              the academy is not liable for how course content is applied in practice.
            </p>
          ),
        },
        {
          heading: "Contact",
          body: (
            <p>
              Questions about these terms:{" "}
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
