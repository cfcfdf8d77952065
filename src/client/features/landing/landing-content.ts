/** Every marketing figure and claim on the landing page, in one place. */
export const landing = {
  hero: {
    eyebrow: "Online certification for wellness coaches",
    title: "Become a Certified Holistic Wellness Coach",
    text: "Study nutrition, functional and integrative health, and the business of a coaching practice with self-paced courses, module quizzes and a certificate anyone can verify.",
    completeIn: "Study at your own pace: a focused learner can complete a course in one week.",
  },
  coursePrice: "$20.00",
  courseDuration: "4 weeks",
  stats: [
    { value: "2,000+", label: "certified practitioners" },
    { value: "1000+", label: "active clients on the practitioner app" },
    { value: "$50-150", label: "per session on the practitioner app" },
    { value: "0%", label: "platform fees" },
  ],
  practitioner: {
    title: "After your course: practise on our companion app",
    text: "Once your course completion is verified, you may register on our companion practitioner app and offer sessions to clients.",
    points: [
      "Earn about $50-150 per session, at rates you set",
      "24/7 flexible hours: work when it suits you",
      "1000+ active clients looking for support",
      "0% platform fees on your sessions",
      "Recommend supplements where appropriate and earn affiliate commission",
    ],
    note: "Earnings vary with your hours, rates and clients; these figures are not a promise of income.",
  },
  testimonials: [
    {
      quote:
        "The nutrition course gave me a clear structure for first sessions. My clients notice that I listen more and lecture less.",
      name: "Maria L.",
      role: "Nutrition Coach, Austin",
    },
    {
      quote:
        "I liked that every lesson says where the evidence is strong and where it is not. It made me a more careful coach.",
      name: "David K.",
      role: "Functional Nutrition Counselor, Leeds",
    },
    {
      quote: "The business bonus course finally got my pricing and client records in order. Practical and honest.",
      name: "Aisha R.",
      role: "Integrative Health Practitioner, Toronto",
    },
  ],
  disclaimer:
    "Medical disclaimer: our courses are for educational purposes only and are not medical advice. Completing a course does not qualify you to diagnose, treat or prescribe for any medical condition. Always refer clients to a qualified healthcare professional for medical concerns.",
} as const;
