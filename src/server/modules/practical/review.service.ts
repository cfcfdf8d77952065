import type { Kysely } from "kysely";
import { describePassRule, evaluatePassRule } from "#shared/practical-pass-rule.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ReviewInput, ReviewQueue, ReviewSubmission } from "#shared/schemas/practical.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import { enqueueEmail } from "../../mail/outbox.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Catalogue, CatalogueCourse, CoursePractical } from "../courses/course-catalogue.ts";
import { extensionOf } from "./file-type.ts";
import {
  claimSubmission,
  findSubmission,
  listQueue,
  listSubmissions,
  recordReview,
  releaseSubmission,
  reviewOf,
  type StoredSubmission,
} from "./practical.repository.ts";
import { type PracticalDeps, requirePractical, rubricOf } from "./practical.service.ts";

const HOUR = 3_600_000;

/** Waiting submissions, oldest first, with how long each has waited. */
export async function reviewQueue(
  deps: PracticalDeps,
  catalogue: Catalogue,
  assessor: CurrentUser,
): Promise<ReviewQueue> {
  const now = Date.now();
  const rows = await listQueue(deps.db);
  return {
    expectedReviewDays: deps.config.practical.expectedReviewDays,
    items: rows.map((r) => ({
      number: r.number,
      courseId: r.courseId,
      courseTitle: catalogue.byId.get(r.courseId)?.card.title ?? r.courseId,
      attempt: r.attempt,
      submittedAt: r.submittedAt,
      waitingHours: Math.max(0, Math.floor((now - new Date(r.submittedAt).getTime()) / HOUR)),
      status: r.status as "submitted" | "in-review",
      claimedByMe: r.claimedBy === assessor.id,
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
  const earlier = (await listSubmissions(deps.db, s.userId, s.courseId)).filter((x) => x.attempt < s.attempt);
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
  };
}

/** Claims a submission for this assessor; a guarded update, so across instances only one claim wins. */
export async function claim(deps: PracticalDeps, assessor: CurrentUser, number: number) {
  const s = await requireSubmission(deps, number);
  if (s.userId === assessor.id) throw forbidden("You cannot review your own submission.");
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

/** Scores against the rubric; throws 400 naming the first problem. */
export function scoreReview(practical: CoursePractical, input: ReviewInput) {
  const byId = new Map(input.scores.map((s) => [s.criterionId, s]));
  if (byId.size !== input.scores.length) throw badRequest("Score each criterion once.");
  for (const id of byId.keys())
    if (!practical.criteria.some((c) => c.id === id)) throw badRequest(`'${id}' is not a criterion of this rubric.`);
  const scores = practical.criteria.map((criterion) => {
    const score = byId.get(criterion.id);
    if (!score) throw badRequest(`Score the criterion "${criterion.title}".`);
    const levels = criterion.levels.map((l) => l.points);
    if (!levels.includes(score.points))
      throw badRequest(`"${criterion.title}" is scored at one of its levels: ${levels.join(", ")} points.`);
    return { criterionId: criterion.id, points: score.points, comment: score.comment.trim() };
  });
  const rule = evaluatePassRule(practical, new Map(scores.map((s) => [s.criterionId, s.points])));
  return { scores, points: rule.points, maxPoints: rule.maxPoints, meetsRule: rule.meets };
}

/**
 * Records the assessor's scores, comments, feedback and decision (pass needs the rubric's pass rule),
 * writes the audit line and queues the learner's result mail in the same transaction.
 */
export async function submitReview(
  deps: PracticalDeps,
  catalogue: Catalogue,
  assessor: CurrentUser,
  number: number,
  input: ReviewInput,
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
  const scored = scoreReview(practical, input);
  if (input.decision === "pass" && !scored.meetsRule)
    throw badRequest(`These scores do not meet the pass rule (${describePassRule(practical)}): choose resubmit.`);
  const now = new Date().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const recorded = await recordReview(trx, number, assessor.id, {
      status: input.decision === "pass" ? "passed" : "resubmit",
      scores: JSON.stringify(scored.scores),
      feedback: input.feedback.trim(),
      points: scored.points,
      maxPoints: scored.maxPoints,
      now,
    });
    if (!recorded) throw conflict("This submission has already been reviewed.");
    await recordAudit(trx, assessor, "practical.review", `submission #${number}`, {
      courseId: s.courseId,
      attempt: s.attempt,
      decision: input.decision,
      points: scored.points,
      maxPoints: scored.maxPoints,
    });
    // The learner's result mail is queued with the review: both happen, or neither.
    await tellLearner(trx, deps.config.appUrl, course, s, input.decision, input.feedback.trim());
  });
  return getReviewSubmission(deps, catalogue, assessor, number);
}

async function tellLearner(
  trx: Kysely<DB>,
  appUrl: string,
  course: CatalogueCourse,
  s: StoredSubmission,
  decision: "pass" | "resubmit",
  feedback: string,
) {
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
      url: link,
    },
    link,
  });
}
