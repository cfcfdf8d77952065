import type { Generated } from "kysely";
import type { NameOrder } from "#shared/schemas/text.ts";

/**
 * The shapes the app reads and writes on both engines (db/column-shapes.ts, decision 0040): a
 * timestamp is an ISO 8601 UTC string (`toISOString()`), a yes/no column a boolean.
 */
type Timestamp = string;

// Better Auth's tables (camelCase, as the library names them).
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  firstName: string;
  lastName: string;
  /** Defaults to given-first (Better Auth's sign-up does not write it). */
  nameOrder: Generated<NameOrder>;
  role: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Set by the account's erasure (decision 0051); every write that belongs to the account checks it. */
  erasedAt: Timestamp | null;
  /** Better Auth's two-factor plugin: TOTP confirmed (docs/decisions/0054). */
  twoFactorEnabled: Generated<boolean>;
  /** Off: the account signs in with a passkey only (decision 0054, migration 049). */
  passwordSignIn: Generated<boolean>;
}
export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  /** When this session last confirmed a second factor or a passkey (decision 0054). */
  secondFactorAt: Timestamp | null;
}
/** Better Auth's two-factor plugin: secret and backup codes, encrypted with the auth secret. */
export interface TwoFactorTable {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: Generated<boolean>;
  failedVerificationCount: Generated<number>;
  lockedUntil: Timestamp | null;
}
/** Better Auth's passkey plugin: one WebAuthn credential. */
export interface PasskeyTable {
  id: string;
  name: string | null;
  publicKey: string;
  userId: string;
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: boolean;
  transports: string | null;
  createdAt: Timestamp | null;
  aaguid: string | null;
}
export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

// Course content, imported from content/courses.
export interface CourseTable {
  id: string;
  position: number;
  title: string;
  description: string;
  level: string;
  price: number;
  duration: string;
  gradient: string;
  comingSoon: boolean;
  learningOutcomes: string; // JSON array
  seoTitle: string;
  seoDescription: string;
  seoKeywords: string; // JSON array
  marketplaceUrl: string | null;
  /** Attempt rules from course.json; null means the academy's defaults. */
  maxAttempts: number | null;
  cooldownHours: number | null;
  studyHours: number | null;
  /** JSON CeApproval (src/shared/format.ts), or null: no CE hours claimed (decision 0052). */
  ceApproval: string | null;
  lastReviewed: string | null; // YYYY-MM-DD
  reviewerRole: string | null;
  titleNotice: string | null;
  contentHash: string;
  updatedAt: Timestamp;
  /** The published version these content rows serve (courseVersion). */
  version: Generated<number>;
}
export interface ModuleTable {
  courseId: string;
  id: string;
  position: number;
  title: string;
  description: string;
}
export interface LessonTable {
  courseId: string;
  id: string;
  moduleId: string;
  position: number; // position across the whole course, from 0
  title: string;
  duration: string;
  html: string;
  lastReviewed: string | null; // YYYY-MM-DD, when it differs from the course's
  reviewerRole: string | null;
}
export interface QuizTable {
  courseId: string;
  moduleId: string;
  title: string;
  draw: Generated<number>; // questions per attempt
  questions: string; // JSON: the bank, with options, correct answers and explanations (server only)
}
export interface CourseExamTable {
  courseId: string;
  title: string;
  draw: number;
  timeLimitMinutes: number | null;
  questions: string; // JSON, like QuizTable.questions
  blueprint: string | null; // JSON [{ moduleId, count }]; null only for exams imported before blueprints
}
export interface CoursePracticalTable {
  courseId: string;
  title: string;
  briefHtml: string;
  criteria: string; // JSON PracticalCriterion[]
  passRule: string; // JSON PassRule (docs/decisions/0052)
  requiredForCertificate: boolean;
  /** 'recording': an audio or video recording of the session is required (docs/decisions/0053). */
  evidence: Generated<"written" | "recording">;
  assessorRequirements: Generated<string>;
  redFlagSteps: Generated<string>;
  exemplars: Generated<string>; // JSON PracticalExemplar[]
}
export type PracticalStatus = "submitted" | "in-review" | "passed" | "resubmit";
export interface PracticalSubmissionTable {
  id: Generated<number>;
  userId: string;
  courseId: string;
  attempt: number;
  body: string;
  status: PracticalStatus;
  submittedAt: Timestamp;
  consentedAt: Timestamp;
  claimedBy: string | null;
  claimedAt: Timestamp | null;
  reviewedBy: string | null;
  reviewedAt: Timestamp | null;
  scores: string | null; // JSON [{ criterionId, points, comment }]
  feedback: string | null;
  points: number | null;
  maxPoints: number | null;
  courseVersion: Generated<number>;
  redFlagConfirmedAt: Timestamp | null;
  markingStage: "second" | "third" | null;
}
export interface PracticalFileTable {
  id: string;
  submissionId: number;
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
}
export interface PracticalGrantTable {
  id: string;
  userId: string;
  courseId: string;
  grantedBy: string;
  createdAt: Timestamp;
}
/** Who teaches or assesses which course (migration 035, decision 0053). */
export interface CourseStaffTable {
  userId: string;
  courseId: string;
  role: "instructor" | "assessor";
  assignedBy: string;
  createdAt: Timestamp;
}
/** Who reviewed a published course version, with what credential, and when (migration 044, decision 0058). */
export interface CourseReviewTable {
  courseId: string;
  version: number;
  reviewerName: string;
  credential: string;
  /** YYYY-MM-DD, on or after the version's publication. */
  reviewedOn: string;
  recordedBy: string;
  recordedAt: Timestamp;
}
/** An assessor's qualifications (docs/decisions/0053). */
export interface AssessorProfileTable {
  userId: string;
  credential: string;
  awardingBody: string;
  credentialNumber: string;
  coachingTraining: string | null;
  updatedAt: Timestamp;
}
/** One calibration score of one exemplar by one assessor, under the rubric it was scored against. */
export interface AssessorCalibrationTable {
  id: Generated<number>;
  userId: string;
  courseId: string;
  exemplarId: string;
  rubricHash: string;
  scores: string; // JSON [{ criterionId, points }]
  withinOne: boolean;
  scoredAt: Timestamp;
}
/** Every mark an assessor gives a submission: round 1 (first), 2 (blind second), 3 (deciding). */
export interface PracticalMarkTable {
  id: Generated<number>;
  submissionId: number;
  courseId: string;
  round: number;
  assessorId: string;
  decision: "pass" | "resubmit";
  scores: string; // JSON [{ criterionId, points, comment }]
  feedback: string;
  points: number;
  maxPoints: number;
  claimedAt: Timestamp;
  markedAt: Timestamp;
}
export type VersionKind = "major" | "minor";
/** One published version of a course, never changed once written (docs/decisions/0055). */
export interface CourseVersionTable {
  courseId: string;
  version: number;
  /** The version number of the major publish this version belongs to (a minor keeps its predecessor's). */
  line: number;
  kind: VersionKind;
  note: string;
  /** JSON CourseDocument: the course files' content; null for a version made before versions (036). */
  document: string | null;
  /** JSON ServedRows: the content tables' rows this version serves. */
  served: string;
  documentHash: string;
  publishedAt: Timestamp;
  publishedBy: string | null;
  /** The publish request's key: a retried request finds its version instead of publishing twice. */
  requestKey: string | null;
}
/** A course's working draft; every write names the revision it was based on. */
export interface CourseDraftTable {
  courseId: string;
  document: string; // JSON CourseDocument
  revision: number;
  /** The published version the draft started from; null for a course never published. */
  baseVersion: number | null;
  updatedAt: Timestamp;
  updatedBy: string | null;
}
/** A media file a course version refers to by name and content hash. */
export interface CourseMediaTable {
  courseId: string;
  name: string;
  sha256: string;
  bytes: Uint8Array;
  createdAt: Timestamp;
}
export interface ContentImportTable {
  id: Generated<number>;
  contentHash: string;
  importedAt: Timestamp;
}

// Shared by every app instance (epoch milliseconds).
export interface HitCounterTable {
  key: string;
  count: number;
  windowEndsAt: number;
}

export interface ScheduledJobTable {
  name: string;
  nextRunAt: number;
  runs: Generated<number>;
  lastRunAt: number | null;
  lastError: string | null;
}

// Learners' records.
export interface EnrollmentTable {
  id: string;
  userId: string;
  courseId: string;
  source: string; // purchase | admin | coupon | fixture
  createdAt: Timestamp;
  /** The version line the learner moved to last (move-to-latest); their records' versions count too. */
  courseLine: Generated<number>;
}

export interface LessonCompletionTable {
  userId: string;
  courseId: string;
  lessonId: string;
  completedAt: Timestamp;
  /** The course version the lesson was completed on. */
  courseVersion: Generated<number>;
}
export interface QuizAttemptTable {
  id: string;
  userId: string;
  courseId: string;
  moduleId: string;
  score: number;
  correctCount: number;
  total: number;
  passed: boolean;
  answers: string; // JSON map of question id to option id
  createdAt: Timestamp;
  /** 1 once the rollup added this attempt's answers to itemResponseTally (decision 0039). */
  tallied: Generated<number>;
  courseVersion: Generated<number>;
}
/** Item statistics' running sums per option of each item (db/item-response-tally.ts, decision 0039). */
export interface ItemResponseTallyTable {
  courseId: string;
  /** The course version of the attempts summed here (decision 0055): statistics are per item and version. */
  courseVersion: number;
  /** A module id, or the final exam's id. */
  assessmentId: string;
  questionId: string;
  optionId: string;
  responses: number;
  /** Sum of the scores of the attempts that chose this option, and of their squares. */
  sumScore: number;
  sumSquares: number;
}
/** One attempt at a module quiz or the final exam: what was drawn, when, and (once graded) the result. */
export interface AssessmentAttemptTable {
  id: string;
  userId: string;
  courseId: string;
  assessmentId: string; // module id, or FINAL_EXAM_ID
  questions: string; // JSON: [{ id, options: [option ids in the order shown] }]
  startedAt: Timestamp;
  deadlineAt: Timestamp | null;
  submittedAt: Timestamp | null;
  score: number | null;
  passed: boolean | null;
  /** 1, 2, 3... per learner and assessment; unique, so two instances cannot both add the next attempt. */
  ordinal: number | null;
  courseVersion: Generated<number>;
}
export interface AttemptGrantTable {
  id: string;
  userId: string;
  courseId: string;
  assessmentId: string;
  grantedBy: string;
  createdAt: Timestamp;
}
export interface LearnerAccommodationTable {
  userId: string;
  timeMultiplier: number;
  updatedBy: string;
  updatedAt: Timestamp;
}
export interface CourseProgressTable {
  id: string;
  userId: string;
  courseId: string;
  isCompleted: boolean;
  completedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CertificateTable {
  id: string;
  certificateId: string;
  userId: string;
  courseId: string;
  firstName: string;
  lastName: string;
  nameOrder: Generated<NameOrder>;
  completedAt: Timestamp;
  expiresAt: Timestamp;
  issuedAt: Timestamp;
  revokedAt: Timestamp | null;
  revokedReason: string | null;
  /** Continuing-education hours the certificate was issued (or last renewed) with. */
  ceHours: Generated<number | null>;
  credentialUuid: Generated<string | null>;
  validFrom: Generated<Timestamp | null>;
  /** The course version the certificate was earned on. */
  courseVersion: Generated<number>;
}
export interface CertificateReminderTable {
  id: string;
  certificateId: string;
  kind: string;
  expiresAt: Timestamp;
  sentAt: Timestamp;
}
export type RenewalKind = "recertification" | "extension";
export interface CertificateRenewalTable {
  id: string;
  certificateId: string;
  kind: RenewalKind;
  previousExpiresAt: Timestamp;
  newExpiresAt: Timestamp;
  renewedAt: Timestamp;
  attemptId: string | null;
  actorId: string | null;
  reason: string | null;
  supersededCredentialId: string | null;
  supersededCredential: string | null;
}
export interface EmailOptOutTable {
  userId: string;
  topic: string;
  createdAt: Timestamp;
}
export interface CertificateNameChangeTable {
  id: string;
  certificateId: string;
  oldFirstName: string;
  oldLastName: string;
  newFirstName: string;
  newLastName: string;
  oldNameOrder: Generated<NameOrder>;
  newNameOrder: Generated<NameOrder>;
  changedAt: Timestamp;
}

export interface CouponTable {
  id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  courseId: string | null;
  expiresAt: Timestamp | null;
  maxRedemptions: number | null;
  redemptionCount: number;
  active: boolean;
  createdAt: Timestamp;
}
export type OrderStatus = "created" | "paid" | "refunding" | "refunded";
export interface OrderTable {
  id: string;
  userId: string;
  courseId: string;
  amount: number;
  originalAmount: number;
  currency: string;
  couponId: string | null;
  couponCode: string | null;
  provider: string;
  /** The provider's payment intent; for a hosted session not paid yet, the session's id. */
  providerPaymentId: string;
  providerSessionId: string | null;
  kind: string; // intent | session | free
  status: OrderStatus;
  /** "userId:courseId" while this order gives the learner the course (unique), else null. */
  ownershipKey: string | null;
  refundReason: string | null; // admin | duplicate | coupon | provider-refund | dispute
  paidAt: Timestamp | null;
  refundId: string | null;
  refundedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
/** A receipt to mail for an order's payment or refund; sent once (claimedAt, then sentAt). */
/** One message the academy sends (mail/outbox.ts, decision 0050). */
/** A piece of work one event causes, run once by the `one-off-jobs` turn (jobs/one-off-jobs.ts). */
export interface OneOffJobTable {
  id: string;
  /** The job definition's name (`defineJob`). */
  name: string;
  /** Makes work that several paths may cause one row. */
  key: string | null;
  /** The definition's payload, JSON. */
  payload: string;
  status: "queued" | "running" | "done" | "failed";
  attempts: Generated<number>;
  runAt: Timestamp;
  lastError: string | null;
  createdAt: Timestamp;
  finishedAt: Timestamp | null;
}

export interface OutboxEmailTable {
  id: string;
  /** Makes a message several paths may cause one row (e.g. `receipt:{orderId}:payment`). */
  key: string | null;
  toAddress: string;
  userId: string | null;
  template: string;
  /** The template's data, JSON. */
  data: string;
  link: string | null;
  /** An opt-out topic (emailOptOut): a holder who unsubscribed before the send is skipped. */
  topic: string | null;
  status: "queued" | "sending" | "sent" | "failed" | "skipped";
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  lastError: string | null;
  createdAt: Timestamp;
  sentAt: Timestamp | null;
}
export interface CouponRedemptionTable {
  id: string;
  couponId: string;
  orderId: string;
  userId: string;
  createdAt: Timestamp;
}
export interface SandboxPaymentTable {
  id: string;
  kind: string;
  amount: number;
  currency: string;
  status: string;
  clientSecret: string;
  metadata: string;
  idempotencyKey: string | null;
  paymentIntentId: string | null;
  lastError: string | null;
  cardLast4: string | null;
  settleAt: Timestamp | null;
  refundedAmount: number;
  refundId: string | null;
  createdAt: Timestamp;
}
export interface WebhookEventTable {
  id: string;
  type: string;
  receivedAt: Timestamp;
}

export interface PendingEnrollmentTable {
  id: string;
  email: string;
  courseId: string;
  createdBy: string | null;
  createdAt: Timestamp;
  appliedAt: Timestamp | null;
}
export interface AuditLogTable {
  id: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  target: string;
  details: string; // JSON
  createdAt: Timestamp;
}

// The credential issuer's Ed25519 keys; retired keys stay so older credentials still verify.
export interface IssuerKeyTable {
  id: string;
  publicKeyMultibase: string;
  secretKeyMultibase: string;
  activeSlot: string | null;
  createdAt: Timestamp;
}
export interface CredentialStatusTable {
  certificateId: string;
  listId: number;
  statusIndex: number;
  /** The signed credential JSON, cleared when its content changes (e.g. a reissued name). */
  credential: string | null;
  createdAt: Timestamp;
}
export interface PractitionerListingTable {
  userId: string;
  displayName: string;
  region: string;
  /** The region folded for search (lower case, no accents). */
  regionKey: string;
  bio: string;
  contactUrl: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** The dashboard's daily rollup (docs/decisions/0038); `day` counts UTC days since 1970-01-01. */
export interface AnalyticsDayTable {
  day: number;
  courseId: string;
  item: string;
  metric: string;
  value: number;
}
export interface ActiveLearnerDayTable {
  userId: string;
  day: number;
  prevDay: number | null;
}
/** Learners active on `day` whose previous active day was `prevDay` (-1: none). */
export interface ActiveLearnerGapTable {
  day: number;
  prevDay: number;
  learners: number;
}
export interface AnalyticsRollupTable {
  id: number;
  rolledUntil: number;
  rolledAt: string;
}
/** The course funnel's milestones per learner and course (docs/decisions/0045); flags are 0 or 1. */
export interface LearnerMilestoneTable {
  courseId: string;
  userId: string;
  started: number;
  examPassed: number;
  /** The modules passed, ",alpha,beta," (just "," for none). */
  modulesPassed: string;
}
export interface LearnerMilestoneCourseTable {
  courseId: string;
  /** The course's modules as the rows were computed (milestoneShape). */
  shape: string;
  /** The rows hold every learner's activity stamped before this time, less the fold's margin. */
  foldedUntil: Timestamp;
}

/** Learners' questions and their answers, one table (migration 042, decision 0056). */
export interface PostTable {
  id: string;
  kind: "question" | "answer";
  courseId: string;
  lessonId: string;
  questionId: string | null;
  authorId: string | null;
  badge: "instructor" | "assessor" | "admin" | null;
  title: string | null;
  body: string;
  html: string;
  state: "visible" | "held" | "hidden";
  acceptedAnswerId: string | null;
  createdAt: Timestamp;
  editedAt: Timestamp | null;
  notifiedAt: Timestamp | null;
}
export interface QuestionMarkTable {
  questionId: string;
  userId: string;
  createdAt: Timestamp;
}
export interface PostReportTable {
  id: string;
  postId: string;
  reporterId: string;
  reason: string;
  note: string | null;
  createdAt: Timestamp;
  resolvedAt: Timestamp | null;
}
export interface NotificationTable {
  id: string;
  userId: string;
  kind: "answer" | "accepted";
  questionId: string;
  createdAt: Timestamp;
  readAt: Timestamp | null;
}
export interface PostingSuspensionTable {
  userId: string;
  reason: string;
  suspendedBy: string;
  createdAt: Timestamp;
}
export interface QuestionMailOptOutTable {
  userId: string;
  createdAt: Timestamp;
}
export interface CommonQuestionTable {
  lessonId: string;
  questionId: string;
  courseId: string;
  promotedBy: string;
  createdAt: Timestamp;
}
export interface DB {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  twoFactor: TwoFactorTable;
  passkey: PasskeyTable;
  course: CourseTable;
  courseModule: ModuleTable;
  lesson: LessonTable;
  quiz: QuizTable;
  courseExam: CourseExamTable;
  coursePractical: CoursePracticalTable;
  practicalSubmission: PracticalSubmissionTable;
  practicalFile: PracticalFileTable;
  practicalGrant: PracticalGrantTable;
  courseStaff: CourseStaffTable;
  courseReview: CourseReviewTable;
  assessorProfile: AssessorProfileTable;
  assessorCalibration: AssessorCalibrationTable;
  practicalMark: PracticalMarkTable;
  contentImport: ContentImportTable;
  courseVersion: CourseVersionTable;
  courseDraft: CourseDraftTable;
  courseMedia: CourseMediaTable;
  hitCounter: HitCounterTable;
  scheduledJob: ScheduledJobTable;
  enrollment: EnrollmentTable;
  lessonCompletion: LessonCompletionTable;
  quizAttempt: QuizAttemptTable;
  itemResponseTally: ItemResponseTallyTable;
  courseProgress: CourseProgressTable;
  assessmentAttempt: AssessmentAttemptTable;
  attemptGrant: AttemptGrantTable;
  learnerAccommodation: LearnerAccommodationTable;
  certificate: CertificateTable;
  certificateNameChange: CertificateNameChangeTable;
  certificateReminder: CertificateReminderTable;
  outboxEmail: OutboxEmailTable;
  oneOffJob: OneOffJobTable;
  certificateRenewal: CertificateRenewalTable;
  emailOptOut: EmailOptOutTable;
  coupon: CouponTable;
  order: OrderTable;
  couponRedemption: CouponRedemptionTable;
  sandboxPayment: SandboxPaymentTable;
  webhookEvent: WebhookEventTable;
  pendingEnrollment: PendingEnrollmentTable;
  auditLog: AuditLogTable;
  issuerKey: IssuerKeyTable;
  credentialStatus: CredentialStatusTable;
  practitionerListing: PractitionerListingTable;
  analyticsDay: AnalyticsDayTable;
  activeLearnerDay: ActiveLearnerDayTable;
  activeLearnerGap: ActiveLearnerGapTable;
  analyticsRollup: AnalyticsRollupTable;
  learnerMilestone: LearnerMilestoneTable;
  learnerMilestoneCourse: LearnerMilestoneCourseTable;
  post: PostTable;
  questionVote: QuestionMarkTable;
  questionFollow: QuestionMarkTable;
  postReport: PostReportTable;
  notification: NotificationTable;
  postingSuspension: PostingSuspensionTable;
  questionMailOptOut: QuestionMailOptOutTable;
  commonQuestion: CommonQuestionTable;
}
