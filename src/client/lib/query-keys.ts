// Every query key the client uses, in one factory: features read with these keys and their mutation
// hooks invalidate with them, so no page spells a key. A key's prefix covers the keys under it
// (invalidating a course's detail also refreshes its lessons).
export const queryKeys = {
  currentUser: () => ["/api/auth/user"] as const,
  siteConfig: () => ["/api/config"] as const,
  sessions: () => ["/api/profile/sessions"] as const,
  passwordSignIn: () => ["/api/profile/password-sign-in"] as const,
  courses: {
    all: () => ["/api/courses"] as const,
    detail: (courseId: string) => ["/api/courses", courseId] as const,
    lesson: (courseId: string, lessonId: string) => ["/api/courses", courseId, "lessons", lessonId] as const,
  },
  enrollments: {
    all: () => ["/api/enrollments"] as const,
    course: (courseId: string) => ["/api/enrollments", courseId] as const,
  },
  myLearning: () => ["/api/my-learning"] as const,
  examRules: (courseId: string) => ["/api/exam-rules", courseId] as const,
  recertificationRules: (courseId: string) => ["/api/recertification-rules", courseId] as const,
  practical: (courseId: string) => ["/api/practical", courseId] as const,
  review: {
    queue: () => ["/api/review/queue"] as const,
    submission: (number: number) => ["/api/review/submissions", number] as const,
  },
  certificates: {
    all: () => ["/api/certificates"] as const,
    course: (courseId: string) => ["/api/certificate", courseId] as const,
    verification: (certificateId: string) => ["/api/verify", certificateId] as const,
    credentialCheck: (certificateId: string) => ["/api/verify", certificateId, "credential"] as const,
  },
  practitioners: {
    all: () => ["/api/practitioners"] as const,
    directory: (course: string, region: string) => ["/api/practitioners", course, region] as const,
    own: () => ["/api/profile/practitioner"] as const,
  },
  purchases: {
    all: () => ["/api/purchases"] as const,
    one: (orderId: string) => ["/api/purchases", orderId] as const,
  },
  payments: {
    config: () => ["/api/payments/config"] as const,
    sandboxSession: (sessionId: string) => ["/api/sandbox/checkout-sessions", sessionId] as const,
    checkoutResult: (sessionId: string) => ["/api/auto-enroll-all", sessionId] as const,
  },
  questions: {
    all: () => ["/api/questions"] as const,
    lesson: (courseId: string, lessonId: string) => ["/api/questions", "lesson", courseId, lessonId] as const,
    common: (courseId: string, lessonId: string) => ["/api/questions", "common", courseId, lessonId] as const,
    detail: (questionId: string) => ["/api/questions", "detail", questionId] as const,
    search: (courseId: string, search: string, lessonId = "") =>
      ["/api/questions", "search", courseId, search, lessonId] as const,
    staffQueue: () => ["/api/questions", "staff"] as const,
  },
  notifications: () => ["/api/notifications"] as const,
  studio: {
    courses: () => ["/api/studio/course-list"] as const,
    slug: (slug: string) => ["/api/studio/course-slug", slug] as const,
    instructors: () => ["/api/studio/instructors"] as const,
    draft: (courseId: string) => ["/api/studio/courses", courseId, "draft"] as const,
    versions: (courseId: string) => ["/api/studio/courses", courseId, "versions"] as const,
    version: (courseId: string, version: number) => ["/api/studio/courses", courseId, "versions", version] as const,
  },
  admin: {
    itemStatistics: (courseId = "", version?: number) => ["/api/admin/item-statistics", courseId, version] as const,
    analytics: (
      part?: "overview" | "assessments" | "funnel" | "questions",
      from = "",
      to = "",
      courseId = "",
      version?: number,
    ) =>
      part === undefined
        ? (["/api/admin/analytics"] as const)
        : (["/api/admin/analytics", part, from, to, courseId, version] as const),
    expiringCertificates: (window?: string) =>
      window === undefined
        ? (["/api/admin/certificates/expiring"] as const)
        : (["/api/admin/certificates/expiring", window] as const),
    coupons: () => ["/api/admin/coupons"] as const,
    courseStaff: () => ["/api/admin/course-staff"] as const,
    orders: (q?: string, page?: number) =>
      q === undefined ? (["/api/admin/orders"] as const) : (["/api/admin/orders", q, page] as const),
    learners: (q?: string, page?: number) =>
      q === undefined ? (["/api/admin/learners"] as const) : (["/api/admin/learners", q, page] as const),
    audit: (q?: string, page?: number) =>
      q === undefined ? (["/api/admin/audit"] as const) : (["/api/admin/audit", q, page] as const),
    outbox: (status?: string, page?: number) =>
      status === undefined ? (["/api/admin/outbox"] as const) : (["/api/admin/outbox", status, page] as const),
    outboxMessage: (id?: string) =>
      id === undefined ? (["/api/admin/outbox/message"] as const) : (["/api/admin/outbox/message", id] as const),
  },
};
