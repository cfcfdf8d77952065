/**
 * The browser app's route table, shared so the server can answer 404 for paths the app does not
 * know (while still sending the app, which renders its own 404 page).
 */
export const routePatterns = {
  home: "/",
  login: "/login",
  resetPassword: "/reset-password",
  terms: "/terms",
  privacy: "/privacy",
  course: "/course/:courseId",
  lesson: "/course/:courseId/lesson/:lessonId",
  quiz: "/course/:courseId/quiz/:moduleId",
  exam: "/course/:courseId/exam",
  courseCertificate: "/course/:courseId/certificate",
  verify: "/verify/:certificateId",
  myLearning: "/my-learning",
  certificates: "/certificates",
  admin: "/admin",
  adminEnrollments: "/admin-enrollments",
  adminCoupons: "/admin/coupons",
  adminOrders: "/admin/orders",
  adminLearners: "/admin/learners",
  adminAudit: "/admin/audit",
  profile: "/profile",
  checkoutSuccess: "/checkout/success",
  checkout: "/checkout/:courseId",
  hostedCheckout: "/firebase-checkout/:courseId",
  simpleCheckout: "/simple-checkout/:courseId",
  sandboxCheckout: "/sandbox-checkout/:sessionId",
  dashboard: "/dashboard",
  registerPractitioner: "/register-practitioner",
  practitioners: "/practitioners",
} as const;

const matchers = Object.values(routePatterns).map(
  (pattern) => new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, "[^/]+")}/?$`),
);

/** Whether the browser app has a page at this path (query string excluded). */
export function isClientRoute(pathname: string): boolean {
  return matchers.some((matcher) => matcher.test(pathname));
}
