import type { SiteContent } from "#shared/schemas/site-content.ts";

/**
 * The product spec's site texts and figures: what the site shows for any content/site file that is
 * missing. The files in content/site start as a copy of these.
 */
export const DEFAULT_SITE_CONTENT: SiteContent = {
  landing: {
    hero: {
      eyebrow: "Online courses for wellness coaches, each with a Certificate of Completion",
      title: "Become a Holistic Wellness Coach with a Certificate Anyone Can Verify",
      text: "Study nutrition, functional and integrative health, and the business of a coaching practice with self-paced courses, module quizzes and a certificate anyone can verify.",
      completeIn: {
        text: "Study at your own pace: each course is about 5 hours of study, including the practical assessment, designed for 4 weeks part-time. A focused learner can finish the study in one week; the certificate follows once an assessor has reviewed the practical.",
      },
    },
    figures: [
      {
        value: "2,000+",
        label: "graduates holding our Certificates of Completion",
      },
      {
        value: "1000+",
        label: "active clients on the practitioner app",
      },
      {
        value: "$50-150",
        label: "per session on the practitioner app",
        qualifier: "not a promise of income; practitioners set their own rates",
        source: "practitioner app session prices",
      },
      {
        value: "0%",
        label: "platform fees",
        qualifier: "card-processing fees on each payment still apply",
      },
    ],
    practitioner: {
      title: "After your course: practise on our companion app",
      text: "Once your course completion is verified, you may register on our companion practitioner app and offer sessions to clients.",
      claims: [
        {
          text: "Earn about $50-150 per session, at rates you set",
          qualifier: "not a promise of income",
        },
        {
          text: "24/7 flexible hours: work when it suits you",
        },
        {
          text: "1000+ active clients looking for support",
        },
        {
          text: "0% platform fees on your sessions",
          qualifier: "no commission is taken; card-processing fees on each payment still apply",
        },
        {
          text: "Point clients who ask about supplements to independent, reputable information",
          qualifier: "your course teaches why coaches do not sell or recommend supplements for commission",
        },
      ],
      note: "Earnings vary with your hours, rates and clients; these figures are not a promise of income.",
    },
    disclaimer: {
      title: "Medical disclaimer",
      text: "Our courses are for educational purposes only and are not medical advice. Completing a course does not qualify you to diagnose, treat or prescribe for any medical condition. Always refer clients to a qualified healthcare professional for medical concerns.",
    },
  },
  testimonials: [
    {
      quote:
        "The nutrition course gave me a clear structure for first sessions. My clients notice that I listen more and lecture less.",
      name: "Maria L.",
      role: "Nutrition Coach, Austin",
      sample: true,
    },
    {
      quote:
        "I liked that every lesson says where the evidence is strong and where it is not. It made me a more careful coach.",
      name: "David K.",
      role: "Functional Nutrition Counselor, Leeds",
      sample: true,
    },
    {
      quote: "The business bonus course finally got my pricing and client records in order. Practical and honest.",
      name: "Aisha R.",
      role: "Integrative Health Practitioner, Toronto",
      sample: true,
    },
  ],
  practitionerApp: {
    banner: {
      headline: "Earn about $50-150 per session.",
      text: "Complete any course, then register on our companion practitioner app: 24/7 flexible hours, 1000+ active clients and 0% platform fees (card-processing fees still apply).",
      qualifier: "Earnings vary and are not a promise of income.",
    },
    promo: {
      title: "Start practising on our companion app",
      claims: [
        {
          text: "Earn $50-150 per session",
          qualifier: "not a promise of income",
        },
        {
          text: "24/7 flexible schedule",
        },
        {
          text: "1000+ active clients",
        },
        {
          text: "0% platform fees",
          qualifier: "card-processing fees still apply",
        },
      ],
      note: "Registration opens after course completion verification. Earnings vary and are not promised.",
    },
    registration: {
      title: "Register as a practitioner",
      intro:
        "Graduates of any course may offer sessions on our companion practitioner app. Registration happens in the app and opens once your course completion is verified.",
      steps: [
        "Complete every module of a course and pass its assessments; your certificate is issued at once.",
        "Open your certificate and copy its Certificate ID, or share its verification link.",
        "Register in the practitioner app and give it your Certificate ID.",
        "The app checks the certificate, then asks for the details clients see on your profile.",
      ],
      verified: [
        "That the Certificate ID exists and was issued by this academy.",
        "That the name on the certificate matches the name you register with.",
        "The course you completed and the date you completed it.",
        "That the certificate is still valid (not expired and not revoked).",
      ],
      note: "A certificate is a Certificate of Completion: it shows that you finished a course, and it is not a license to practise any health profession.",
    },
  },
};
