import type { Kysely, Transaction } from "kysely";
import { describePassRule } from "#shared/practical-pass-rule.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ReviewInput, ReviewQueue, ReviewSubmission } from "#shared/schemas/practical.ts";
import { isUniqueViolation } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { coursesStaffedBy, isCourseStaff } from "../staff/course-staff.ts";
import { calibrationOf } from "./calibration.service.ts";
import { extensionOf } from "./file-type.ts";
import {
  claimSubmission,
  findSubmission,
  handOffSubmission,
  insertMark,
  listMarks,
  listQueue,
  listSubmissions,
  markedSubmissionsOf,
  recordReview,
  releaseSubmission,
  reviewOf,
  type StoredMark,
  type StoredSubmission,
} from "./practical.repository.ts";
import { type PracticalDeps, requirePractical, rubricOf } from "./practical.service.ts";
import { isBorderline, levelDistance, scoreReview } from "./scoring.ts";

const HOUR = 3_600_000;
type Stage = "first" | "second" | "third";
const ROUND: Record<Stage, number> = { first: 1, second: 2, third: 3 };
const stageOf = (s: { markingStage: "second" | "third" | null }): Stage => s.markingStage ?? "first";

/** The courses whose live queue this user sees: every course for an admin; assigned and calibrated ones for an assessor. */
async function liveCourses(deps: PracticalDeps, catalogue: Catalogue, user: CurrentUser): Promise<string[] | null> {
  if (user.role === "admin") return null;
  const ids: string[] = [];
  for (const id of await coursesStaffedBy(deps.db, user.id, "assessor")) {
    const course = catalogue.byId.get(id);
    if (course && (await calibrationOf(deps.db, user.id, course)).calibrated) ids.push(id);
  }
  return ids;
}

/**
 * Waiting submissions of the courses this assessor may review live, oldest first, with how long each
 * has waited; never one they have marked already (a second mark is blind, a deciding one comes from a third).
 */
export async function reviewQueue(
  deps: PracticalDeps,
  catalogue: Catalogue,
  assessor: CurrentUser,
): Promise<ReviewQueue> {
  const now = Date.now();
  const courses = await liveCourses(deps, catalogue, assessor);
  const rows = courses && courses.length === 0 ? [] : await listQueue(deps.db, courses);
  const marked = await markedSubmissionsOf(
    deps.db,
    assessor.id,
    rows.map((r) => r.number),
  );
  return {
    expectedReviewDays: deps.config.practical.expectedReviewDays,
    items: rows
      .filter((r) => assessor.role === "admin" || !marked.has(r.number))
      .map((r) => ({
        number: r.number,
        courseId: r.courseId,
        courseTitle: catalogue.byId.get(r.courseId)?.card.title ?? r.courseId,
        attempt: r.attempt,
        submittedAt: r.submittedAt,
        waitingHours: Math.max(0, Math.floor((now - new Date(r.submittedAt).getTime()) / HOUR)),
        status: r.status as "submitted" | "in-review",
        claimedByMe: r.claimedBy === assessor.id,
        stage: stageOf(r),
      })),
  };
}

/** The name an assessor sees for a file: the submission number, never the learner's own file name. */
export const anonymousFileName = (number: number, index: number, contentType: string) =>
  `submission-${number}-file-${index + 1}.${extensionOf(contentType)}`;

function courseOf(catalogue: Catalogue, s: StoredSubmission): CatalogueCourse {
  const course = catalogue.byId.get(s.courseId);
  if (!course) throw notFound("This submission's course is no longer available.");
  return course;
}

async function requireSubmission(deps: PracticalDeps, number: number): Promise<StoredSubmission> {
  const s = await findSubmission(deps.db, number);
  if (!s) throw notFound("Submission not found.");
  return s;
}

/**
 * Who may work on a course's submissions (docs/decisions/0053): an admin, or an assessor assigned to
 * the course and calibrated on its exemplars; 403 naming what is missing otherwise.
 */
export async function requireLiveAssessor(deps: PracticalDeps, assessor: CurrentUser, course: CatalogueCourse) {
  if (assessor.role === "admin") return;
  if (!(await isCourseStaff(deps.db, assessor, course.card.id, "assessor")))
    throw forbidden("Only assessors assigned to this course may review its submissions.");
  if (!(await calibrationOf(deps.db, assessor.id, course)).calibrated)
    throw forbidden("Score this practical's calibration exemplars first: live reviews open once you are calibrated.");
}

const asReview = (m: StoredMark) => ({
  decision: m.decision,
  scores: m.scores,
  feedback: m.feedback,
  points: m.points,
  maxPoints: m.maxPoints,
  reviewedAt: m.markedAt,
  round: m.round,
});

/** What the assessor reviews: the work, the rubric and earlier reviews, under a number and never a name. */
export async function getReviewSubmission(
  deps: PracticalDeps,
  catalogue: Catalogue,
  assessor: CurrentUser,
  number: number,
): Promise<ReviewSubmission> {
  const s = await requireSubmission(deps, number);
  if (s.userId === assessor.id) throw forbidden("You cannot review your own submission.");
  const course = courseOf(catalogue, s);
  await requireLiveAssessor(deps, assessor, course);
  const earlier = (await listSubmissions(deps.db, s.userId, s.courseId)).filter((x) => x.attempt < s.attempt);
  const stage = stageOf(s);
  const marks = await listMarks(deps.db, number);
  // A second mark is blind; the deciding assessor (who marked neither) sees the two that disagreed.
  const showMarks = stage === "third" && !marks.some((m) => m.assessorId === assessor.id);
  return {
    number: s.number,
    courseId: s.courseId,
    courseTitle: course.card.title,
    attempt: s.attempt,
    status: s.status,
    submittedAt: s.submittedAt,
    claimedByMe: s.claimedBy === assessor.id,
    text: s.body,
    files: s.files.map((f, i) => ({
      id: f.id,
      name: anonymousFileName(s.number, i, f.contentType),
      contentType: f.contentType,
      size: f.size,
    })),
    rubric: rubricOf(requirePractical(course)),
    earlierReviews: earlier.flatMap((x) => {
      const review = reviewOf(x);
      return review ? [{ ...review, attempt: x.attempt }] : [];
    }),
    review: reviewOf(s),
    stage,
    marks: showMarks ? marks.map(asReview) : [],
  };
}

/** Claims a submission for this assessor; a guarded update, so across instances only one claim wins. */
export async function claim(deps: PracticalDeps, catalogue: Catalogue, assessor: CurrentUser, number: number) {
  const s = await requireSubmission(deps, number);
  if (s.userId === assessor.id) throw forbidden("You cannot review your own submission.");
  await requireLiveAssessor(deps, assessor, courseOf(catalogue, s));
  if ((await listMarks(deps.db, number)).some((m) => m.assessorId === assessor.id))
    throw forbidden(
      "You have marked this submission already: its second or deciding mark comes from another assessor.",
    );
  if (!(await claimSubmission(deps.db, number, assessor.id, new Date().toISOString()))) {
    if (s.status === "passed" || s.status === "resubmit") throw conflict("This submission has already been reviewed.");
    throw conflict("Another assessor has already claimed this submission.");
  }
}

/** Gives a claimed submission back to the queue (its assessor, or an admin). */
export async function release(deps: PracticalDeps, assessor: CurrentUser, number: number) {
  await requireSubmission(deps, number);
  const released = await releaseSubmission(deps.db, number, assessor.role === "admin" ? null : assessor.id);
  if (!released) throw conflict("This submission is not in review by you.");
  await recordAudit(deps.db, assessor, "practical.release", `submission #${number}`);
}

/** Whether two marks disagree: a different decision, or more than one level apart on a criterion. */
export function marksDisagree(
  practical: CatalogueCourse["practical"] & object,
  a: Pick<StoredMark, "decision" | "scores">,
  b: Pick<StoredMark, "decision" | "scores">,
): boolean {
  if (a.decision !== b.decision) return true;
  const other = new Map(b.scores.map((s) => [s.criterionId, s.points]));
  return a.scores.some((s) => levelDistance(practical, s.criterionId, s.points, other.get(s.criterionId) ?? -99) > 1);
}

/**
 * Records the assessor's mark (docs/decisions/0053). A first mark stands unless the submission is drawn
 * for double marking (the configured share, and every borderline mark): then a second assessor marks it
 * blind. When the two agree, the first mark is the result; when they disagree on the decision or by more
 * than one level on a criterion, a third assessor (or an admin) decides. The learner sees one result,
 * and their mail is queued with it, in the same transaction.
 */
export async function submitReview(
  deps: PracticalDeps,
  catalogue: Catalogue,
  assessor: CurrentUser,
  number: number,
  input: ReviewInput,
  draw: () => number = Math.random,
): Promise<ReviewSubmission> {
  const s = await requireSubmission(deps, number);
  const course = courseOf(catalogue, s);
  const practical = requirePractical(course);
  if (s.status !== "in-review" || s.claimedBy !== assessor.id)
    throw conflict(
      s.status === "passed" || s.status === "resubmit"
        ? "This submission has already been reviewed."
        : "Claim this submission before reviewing it.",
    );
  await requireLiveAssessor(deps, assessor, course);
  const scored = scoreReview(practical, input);
  if (input.decision === "pass" && !scored.meetsRule)
    throw badRequest(`These scores do not meet the pass rule (${describePassRule(practical)}): choose resubmit.`);
  const now = new Date().toISOString();
  const stage = stageOf(s);
  const mark = {
    submissionId: number,
    courseId: s.courseId,
    round: ROUND[stage],
    assessorId: assessor.id,
    decision: input.decision,
    scores: scored.scores,
    feedback: input.feedback.trim(),
    points: scored.points,
    maxPoints: scored.maxPoints,
    claimedAt: s.claimedAt ?? now,
    markedAt: now,
  };
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await insertMark(trx, mark);
      let outcome: "result" | "second" | "third" = "result";
      let result: Omit<StoredMark, "round" | "claimedAt" | "markedAt" | "submissionId" | "courseId"> = mark;
      if (stage === "first") {
        const borderline = isBorderline(practical, scored.scores, input.decision);
        if (borderline || draw() < deps.config.practical.doubleMarkShare) outcome = "second";
      } else if (stage === "second") {
        const first = (await listMarks(trx, number)).find((m) => m.round === 1);
        if (!first) throw conflict("This submission's first mark is missing.");
        if (marksDisagree(practical, first, mark)) outcome = "third";
        else result = first;
      }
      if (outcome !== "result") {
        if (!(await handOffSubmission(trx, number, assessor.id, outcome)))
          throw conflict("This submission has already been reviewed.");
      } else {
        const recorded = await recordReview(trx, number, assessor.id, {
          status: result.decision === "pass" ? "passed" : "resubmit",
          reviewedBy: result.assessorId,
          scores: JSON.stringify(result.scores),
          feedback: result.feedback,
          points: result.points,
          maxPoints: result.maxPoints,
          now,
        });
        if (!recorded) throw conflict("This submission has already been reviewed.");
        // The learner's result mail is queued with the review: both happen, or neither.
        await tellLearner(trx, deps.config.appUrl, course, s, result);
      }
      await recordAudit(trx, assessor, "practical.review", `submission #${number}`, {
        courseId: s.courseId,
        attempt: s.attempt,
        round: mark.round,
        decision: input.decision,
        points: scored.points,
        maxPoints: scored.maxPoints,
        next: outcome === "result" ? "result" : `${outcome} mark`,
      });
    })
    .catch((error: unknown) => {
      // The same round marked twice at once (a double submit): one wins.
      if (isUniqueViolation(error)) throw conflict("This submission has already been reviewed.");
      throw error;
    });
  return getReviewSubmission(deps, catalogue, assessor, number);
}

async function tellLearner(
  trx: Kysely<DB> | Transaction<DB>,
  appUrl: string,
  course: CatalogueCourse,
  s: StoredSubmission,
  result: Pick<StoredMark, "decision" | "feedback" | "scores">,
) {
  const { decision, feedback } = result;
  // Each criterion's level and comment, in the rubric's order, so the mail carries the whole result.
  const criteria = (course.practical?.criteria ?? []).map((c) => {
    const score = result.scores.find((x) => x.criterionId === c.id);
    return {
      title: c.title,
      level: c.levels.find((l) => l.points === score?.points)?.label ?? "",
      comment: score?.comment ?? "",
    };
  });
  const learner = await trx
    .selectFrom("user")
    .select(["email", "firstName"])
    .where("id", "=", s.userId)
    .executeTakeFirst();
  if (!learner) return;
  const link = `${appUrl}/course/${course.card.id}/practical`;
  await enqueueEmail(trx, {
    to: learner.email,
    userId: s.userId,
    template: "practical-feedback",
    data: {
      firstName: learner.firstName,
      courseTitle: course.card.title,
      practicalTitle: course.practical?.title ?? "practical assessment",
      decision,
      feedback,
      criteria,
      url: link,
    },
    link,
  });
}
