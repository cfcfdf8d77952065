import { routePatterns } from "#shared/client-routes.ts";

export const paths = {
  home: "/",
  login: "/login",
  resetPassword: "/reset-password",
  terms: "/terms",
  privacy: "/privacy",
  myLearning: "/my-learning",
  certificates: "/certificates",
  adminEnrollments: "/admin-enrollments",
  profile: "/profile",
  purchases: "/purchases",
  receipt: (orderId: string) => `/purchases/${orderId}`,
  course: (courseId: string) => `/course/${courseId}`,
  lesson: (courseId: string, lessonId: string) => `/course/${courseId}/lesson/${lessonId}`,
  quiz: (courseId: string, moduleId: string) => `/course/${courseId}/quiz/${moduleId}`,
  exam: (courseId: string) => `/course/${courseId}/exam`,
  practical: (courseId: string) => `/course/${courseId}/practical`,
  reviewQueue: "/review",
  reviewSubmission: (number: number) => `/review/${number}`,
  practicalFile: (fileId: string) => `/api/practical-files/${fileId}`,
  courseCertificate: (courseId: string) => `/course/${courseId}/certificate`,
  checkout: (courseId: string) => `/checkout/${courseId}`,
  hostedCheckout: (courseId: string) => `/firebase-checkout/${courseId}`,
  simpleCheckout: (courseId: string) => `/simple-checkout/${courseId}`,
  checkoutSuccess: "/checkout/success",
  verify: (certificateId: string) => `/verify/${certificateId}`,
  /** The recertification exam that renews the learner's certificate for this course. */
  recertify: (courseId: string) => `/course/${courseId}/recertify`,
  unsubscribe: routePatterns.unsubscribe,
  studio: routePatterns.studio,
  /** A section of a course in the studio (settings, outline, lessons...). */
  studioCourse: (courseId: string, section = "") => `/studio/courses/${courseId}${section ? `/${section}` : ""}`,
  adminCertificates: routePatterns.adminCertificates,
  /** The admin landing page: the owner's analytics. */
  adminAnalytics: routePatterns.adminAnalytics,
  /** How registering on the practitioner app works and what is verified. */
  practitionerRegistration: routePatterns.registerPractitioner,
  /** The public directory of Certificate of Completion holders, which holders join from their profile. */
  practitioners: routePatterns.practitioners,
} as const;
