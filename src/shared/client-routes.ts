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
  recertify: "/course/:courseId/recertify",
  practical: "/course/:courseId/practical",
  courseCertificate: "/course/:courseId/certificate",
  verify: "/verify/:certificateId",
  myLearning: "/my-learning",
  certificates: "/certificates",
  admin: "/admin",
  adminAnalytics: "/admin/analytics",
  adminEnrollments: "/admin-enrollments",
  adminCoupons: "/admin/coupons",
  adminOrders: "/admin/orders",
  adminLearners: "/admin/learners",
  adminAudit: "/admin/audit",
  adminOutbox: "/admin/outbox",
  adminCertificates: "/admin/certificates",
  adminItemStatistics: "/admin/item-statistics",
  unsubscribe: "/unsubscribe",
  /**
   * The questions feature's pages (decision 0056): a course's `search` (`?course=`), staff's `unanswered`
   * questions, the question e-mails' `unsubscribe` page, what is new (`notices`), and admins' `moderation`.
   */
  questionsPage: "/questions/:page",
  /** Admins' moderation of posts, drawn by the admin learners page's chunk (before `questionsPage` in the routes). */
  questionsModeration: "/questions/moderation",
  reviewQueue: "/review",
  reviewSubmission: "/review/:number",
  /** The calibration overview, and under it each exemplar (`/review/calibration/{courseId}/{exemplarId}`). */
  reviewCalibration: "/review/calibration/*",
  adminAgreement: "/admin/agreement",
  /** The course studio (docs/decisions/0060): the caller's courses, and under it each course's sections. */
  studio: "/studio",
  studioCourse: "/studio/courses/:courseId",
  studioSection: "/studio/courses/:courseId/:section",
  studioItem: "/studio/courses/:courseId/:section/:itemId",
  profile: "/profile",
  purchases: "/purchases",
  receipt: "/purchases/:orderId",
  checkoutSuccess: "/checkout/success",
  checkout: "/checkout/:courseId",
  hostedCheckout: "/firebase-checkout/:courseId",
  simpleCheckout: "/simple-checkout/:courseId",
  sandboxCheckout: "/sandbox-checkout/:sessionId",
  dashboard: "/dashboard",
  registerPractitioner: "/register-practitioner",
  practitioners: "/practitioners",
} as const;

/** The pages `questionsPage` serves; any other name is the app's not-found page (404 from the server). */
export const questionPageNames = ["search", "unanswered", "notices", "unsubscribe", "moderation"] as const;
export const isQuestionPage = (name: string) => (questionPageNames as readonly string[]).includes(name);

export type ClientRouteName = keyof typeof routePatterns;
export interface ClientRouteMatch {
  name: ClientRouteName;
  /** Path parameters as written in the URL (still percent-encoded). */
  params: Record<string, string>;
}

const matchers = (Object.entries(routePatterns) as [ClientRouteName, string][]).map(([name, pattern]) => ({
  name,
  keys: [...pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]),
  regex: new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, "([^/]+)")}/?$`),
}));

/** The browser app's page for this path (query string excluded), with its parameters; null if none. */
export function matchClientRoute(pathname: string): ClientRouteMatch | null {
  for (const { name, keys, regex } of matchers) {
    const found = regex.exec(pathname);
    if (found) return { name, params: Object.fromEntries(keys.map((key, i) => [key, found[i + 1]])) };
  }
  return null;
}
