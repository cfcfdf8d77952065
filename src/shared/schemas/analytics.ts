import { z } from "zod";

/** The owner's analytics dashboard (docs/decisions/0030): aggregates only, never a learner's name. */

/** Longest period one request may cover (a custom range), in days. */
export const ANALYTICS_MAX_DAYS = 731;
/** A learner with no lesson or attempt in the course for longer than this has stalled. */
export const STALL_DAYS = 14;
/** Certificates expiring within this many days count as expiring soon. */
export const EXPIRING_SOON_DAYS = 90;
/** Periods up to this many days are shown day by day; longer ones week by week. */
export const DAILY_UP_TO_DAYS = 62;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-25")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, "must be a real date")
  .refine((s) => s >= "1970-01-01", "must be in 1970 or later");

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000) + 1;

/** A period's own rules, for every query that names one. */
function periodRules<T extends z.ZodType<{ from: string; to: string }>>(schema: T) {
  return schema
    .refine((q) => q.from <= q.to, { message: "The period's start must not be after its end.", path: ["from"] })
    .refine((q) => daysBetween(q.from, q.to) <= ANALYTICS_MAX_DAYS, {
      message: `A period covers at most ${ANALYTICS_MAX_DAYS} days.`,
      path: ["to"],
    });
}

/** Only learners and attempts on this published version of the course (docs/decisions/0055); every version when not given. */
const versionField = z.coerce.number().int().min(1).max(100_000).optional();
const versionNeedsCourse = {
  check: (q: { courseId?: string; version?: number }) => q.version === undefined || q.courseId !== undefined,
  message: { message: "Choose a course to filter by version.", path: ["courseId"] },
};

/** A period: `from` and `to` are both included (UTC days). */
export const periodQuerySchema = periodRules(z.strictObject({ from: isoDay, to: isoDay }));
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

export const funnelQuerySchema = periodRules(
  z.strictObject({ from: isoDay, to: isoDay, courseId: z.string().min(1).max(100), version: versionField }),
);
export type FunnelQuery = z.infer<typeof funnelQuerySchema>;

/** The assessments' figures, for every course, or for one course and (optionally) one of its versions. */
export const assessmentsQuerySchema = periodRules(
  z.strictObject({ from: isoDay, to: isoDay, courseId: z.string().min(1).max(100).optional(), version: versionField }),
).refine(versionNeedsCourse.check, versionNeedsCourse.message);

export const analyticsTableSchema = z.enum([
  "sales-over-time",
  "sales-by-course",
  "learners-over-time",
  "funnel",
  "stalls",
  "assessments",
]);
export type AnalyticsTable = z.infer<typeof analyticsTableSchema>;

export const analyticsCsvQuerySchema = periodRules(
  z.strictObject({
    table: analyticsTableSchema,
    from: isoDay,
    to: isoDay,
    courseId: z.string().min(1).max(100).optional(),
    version: versionField,
  }),
)
  .refine((q) => !["funnel", "stalls"].includes(q.table) || q.courseId, {
    message: "Choose a course for this table.",
    path: ["courseId"],
  })
  .refine(versionNeedsCourse.check, versionNeedsCourse.message)
  .refine((q) => q.version === undefined || ["funnel", "stalls", "assessments"].includes(q.table), {
    message: "Only the funnel, stalls and assessments tables can be filtered by version.",
    path: ["version"],
  });

export const periodSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  previousFrom: z.string(),
  previousTo: z.string(),
  interval: z.enum(["day", "week"]),
});

/** Money in integer cents. */
export const salesFiguresSchema = z.object({
  grossCents: z.number().int(),
  refundsCents: z.number().int(),
  netCents: z.number().int(),
  /** Paid orders (free coupon claims are not orders). */
  orders: z.number().int(),
  /** Gross over orders; null without orders. */
  averageOrderCents: z.number().int().nullable(),
  /** Orders and free claims that used a coupon. */
  couponUses: z.number().int(),
  /** Orders refunded within the period. */
  refundCount: z.number().int(),
  /** Refunds within the period over orders within it (0-1); null without orders. */
  refundRate: z.number().nullable(),
});
export type SalesFigures = z.infer<typeof salesFiguresSchema>;

export const learnerFiguresSchema = z.object({
  newAccounts: z.number().int(),
  enrolments: z.object({
    paid: z.number().int(),
    freeCoupon: z.number().int(),
    admin: z.number().int(),
    total: z.number().int(),
  }),
  /** Learners who completed a lesson or submitted an attempt in the period. */
  activeLearners: z.number().int(),
  /** Courses completed. */
  completions: z.number().int(),
  certificatesIssued: z.number().int(),
});
export type LearnerFigures = z.infer<typeof learnerFiguresSchema>;

export const certificateFiguresSchema = z.object({
  issued: z.number().int(),
  renewed: z.number().int(),
  revoked: z.number().int(),
});

export const salesPointSchema = z.object({
  /** First day of the bucket (YYYY-MM-DD). */
  date: z.string(),
  grossCents: z.number().int(),
  refundsCents: z.number().int(),
  netCents: z.number().int(),
  orders: z.number().int(),
});
export const learnerPointSchema = z.object({
  date: z.string(),
  newAccounts: z.number().int(),
  enrolments: z.number().int(),
  activeLearners: z.number().int(),
  completions: z.number().int(),
  certificatesIssued: z.number().int(),
});
export const courseSalesSchema = z.object({
  courseId: z.string(),
  title: z.string(),
  grossCents: z.number().int(),
  refundsCents: z.number().int(),
  netCents: z.number().int(),
  orders: z.number().int(),
});

export const analyticsOverviewSchema = z.object({
  period: periodSchema,
  sales: z.object({
    current: salesFiguresSchema,
    previous: salesFiguresSchema,
    series: z.array(salesPointSchema),
    byCourse: z.array(courseSalesSchema),
  }),
  learners: z.object({
    current: learnerFiguresSchema,
    previous: learnerFiguresSchema,
    series: z.array(learnerPointSchema),
  }),
  certificates: z.object({
    /** Unrevoked certificates expiring within EXPIRING_SOON_DAYS of today (not of the period). */
    expiringSoon: z.number().int(),
    current: certificateFiguresSchema,
    previous: certificateFiguresSchema,
  }),
});
export type AnalyticsOverview = z.infer<typeof analyticsOverviewSchema>;

export const funnelStepSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number().int(),
  /** Of the learners enrolled in the period (0-1); null without enrolments. */
  shareOfEnrolled: z.number().nullable(),
  /** Of the step before (0-1); null when the step before is 0 (or for the first step). */
  shareKept: z.number().nullable(),
});
export const moduleStallSchema = z.object({
  moduleId: z.string(),
  title: z.string(),
  /** Learners who passed every module before this one. */
  reached: z.number().int(),
  /** Of those, learners who have not passed it and did nothing in the course for more than STALL_DAYS. */
  stalled: z.number().int(),
  /** stalled / reached (0-1); null when nobody reached it. */
  share: z.number().nullable(),
});
export const courseFunnelSchema = z.object({
  period: periodSchema,
  courseId: z.string(),
  title: z.string(),
  steps: z.array(funnelStepSchema),
  /** Median whole days from enrolment to certificate among the certified; null when none. */
  medianDaysToCertificate: z.number().nullable(),
  stallDays: z.number().int(),
  stalls: z.array(moduleStallSchema),
});
export type CourseFunnel = z.infer<typeof courseFunnelSchema>;

export const assessmentFiguresSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  /** A module id, or "exam" for the final exam. */
  assessment: z.string(),
  title: z.string(),
  attempts: z.number().int(),
  /** Learners' first attempts made in the period. */
  firstAttempts: z.number().int(),
  /** Share of first attempts that passed (0-1); null without first attempts. */
  firstTryPassRate: z.number().nullable(),
  /** Mean score (percent) of the period's attempts; null without attempts. */
  meanScore: z.number().nullable(),
});
export const analyticsAssessmentsSchema = z.object({
  period: periodSchema,
  items: z.array(assessmentFiguresSchema),
});
export type AnalyticsAssessments = z.infer<typeof analyticsAssessmentsSchema>;

/** A question waiting longer than this for its first staff answer counts as unanswered (issue 41). */
export const QUESTION_WAIT_HOURS = 48;
export const questionFiguresSchema = z.object({
  period: periodSchema,
  items: z.array(
    z.object({
      courseId: z.string(),
      title: z.string(),
      /** Questions asked in the period (hidden ones left out). */
      asked: z.number().int(),
      answeredByStaff: z.number().int(),
      /** Median seconds from asking to the first answer by staff, among those answered; null when none. */
      medianSecondsToFirstStaffAnswer: z.number().int().nullable(),
      /** Of the questions asked, those at least QUESTION_WAIT_HOURS old now. */
      atLeast48HoursOld: z.number().int(),
      /** Of those, the ones with no staff answer within QUESTION_WAIT_HOURS of asking. */
      unansweredAfter48Hours: z.number().int(),
      /** unansweredAfter48Hours / atLeast48HoursOld (0-1); null when none is that old. */
      shareUnansweredAfter48Hours: z.number().nullable(),
    }),
  ),
});
export type QuestionFigures = z.infer<typeof questionFiguresSchema>;
