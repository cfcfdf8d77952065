import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AdminLearner, LearnerAttempts } from "#shared/schemas/admin.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { attemptRulesOf } from "../learning/assessment-access.ts";
import { attemptAllowance } from "../learning/attempt-rules.ts";
import { PRACTICAL_RESUBMISSIONS } from "../practical/practical.service.ts";
import { FINAL_EXAM_ID } from "../progress/learner-state.ts";

const EXAM = "exam";
/** The practical skills assessment, as the admin API names it. */
const PRACTICAL = "practical";

/** The quizzes and the exam of a course, as the admin API names them ("exam" for the final exam). */
function assessmentsOf(course: CatalogueCourse) {
  return [
    ...course.modules.filter((m) => m.quiz).map((m) => ({ assessment: m.id, id: m.id, title: m.quiz!.title })),
    ...(course.exam ? [{ assessment: EXAM, id: FINAL_EXAM_ID, title: course.exam.title }] : []),
  ];
}

/** Adds each listed learner's time multiplier and attempts per quiz and exam, in three queries. */
export async function withAttempts(
  db: Kysely<DB>,
  config: Config,
  catalogue: Catalogue,
  learners: AdminLearner[],
): Promise<AdminLearner[]> {
  if (learners.length === 0) return learners;
  const ids = learners.map((l) => l.id);
  const [attempts, grants, accommodations, practicals, practicalGrants] = await Promise.all([
    db
      .selectFrom("assessmentAttempt")
      .select(["userId", "courseId", "assessmentId", "submittedAt", "score", "passed"])
      .where("userId", "in", ids)
      .where("submittedAt", "is not", null)
      .execute(),
    db
      .selectFrom("attemptGrant")
      .select(["userId", "courseId", "assessmentId", "createdAt"])
      .where("userId", "in", ids)
      .execute(),
    db.selectFrom("learnerAccommodation").select(["userId", "timeMultiplier"]).where("userId", "in", ids).execute(),
    db
      .selectFrom("practicalSubmission")
      .select(["userId", "courseId", "status", "points", "maxPoints"])
      .where("userId", "in", ids)
      .execute(),
    db.selectFrom("practicalGrant").select(["userId", "courseId"]).where("userId", "in", ids).execute(),
  ]);
  const now = new Date();
  return learners.map((learner) => {
    const rows: LearnerAttempts[] = [];
    for (const { courseId } of learner.courses) {
      const course = catalogue.byId.get(courseId);
      if (!course) continue;
      const rules = attemptRulesOf(config, course);
      for (const a of assessmentsOf(course)) {
        const mine = attempts.filter(
          (x) => x.userId === learner.id && x.courseId === courseId && x.assessmentId === a.id,
        );
        const granted = grants.filter(
          (x) => x.userId === learner.id && x.courseId === courseId && x.assessmentId === a.id,
        );
        const allowance = attemptAllowance(
          mine.map((x) => new Date(x.submittedAt!)),
          granted.map((x) => new Date(x.createdAt)),
          rules,
          now,
        );
        const scores = mine.map((x) => x.score ?? 0);
        rows.push({
          courseId,
          assessment: a.assessment,
          title: a.title,
          attempts: mine.length,
          bestScore: scores.length ? Math.max(...scores) : null,
          passed: mine.some((x) => x.passed === true),
          attemptsLeft: allowance.attemptsLeft,
          nextAttemptAt: allowance.nextAttemptAt?.toISOString() ?? null,
        });
      }
      if (course.practical) {
        const mine = practicals.filter((x) => x.userId === learner.id && x.courseId === courseId);
        const granted = practicalGrants.filter((x) => x.userId === learner.id && x.courseId === courseId).length;
        const passed = mine.some((x) => x.status === "passed");
        const percents = mine.filter((x) => x.maxPoints).map((x) => Math.round((100 * x.points!) / x.maxPoints!));
        rows.push({
          courseId,
          assessment: PRACTICAL,
          title: course.practical.title,
          attempts: mine.length,
          bestScore: percents.length ? Math.max(...percents) : null,
          passed,
          attemptsLeft: passed ? 0 : Math.max(0, 1 + PRACTICAL_RESUBMISSIONS + granted - mine.length),
          nextAttemptAt: null,
        });
      }
    }
    const multiplier = accommodations.find((x) => x.userId === learner.id)?.timeMultiplier;
    return { ...learner, timeMultiplier: multiplier === undefined ? 1 : Number(multiplier), attempts: rows };
  });
}

async function requireLearner(db: Kysely<DB>, userId: string) {
  const user = await db.selectFrom("user").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (!user) throw notFound("Learner not found.");
  return user;
}

/** One extra attempt at a quiz or exam for one learner, now (it also ends a cooldown). Audited. */
export async function grantExtraAttempt(
  db: Kysely<DB>,
  catalogue: Catalogue,
  actor: CurrentUser,
  userId: string,
  input: { courseId: string; assessment: string },
) {
  const learner = await requireLearner(db, userId);
  const course = catalogue.byId.get(input.courseId);
  if (input.assessment === PRACTICAL) return grantPracticalSubmission(db, actor, learner, course);
  const target = course && assessmentsOf(course).find((a) => a.assessment === input.assessment);
  if (!course || !target) throw badRequest("Unknown course, quiz or exam.");
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("attemptGrant")
      .values({
        id: randomUUID(),
        userId,
        courseId: input.courseId,
        assessmentId: target.id,
        grantedBy: actor.id,
        createdAt: new Date().toISOString(),
      })
      .execute();
    await recordAudit(trx, actor, "attempt.grant", learner.email, {
      courseId: input.courseId,
      assessment: input.assessment,
    });
  });
  return { granted: true as const };
}

/** One more practical submission for one learner, beyond the 2 resubmissions. Audited. */
async function grantPracticalSubmission(
  db: Kysely<DB>,
  actor: CurrentUser,
  learner: { id: string; email: string },
  course: CatalogueCourse | undefined,
) {
  if (!course?.practical) throw badRequest("This course has no practical assessment.");
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("practicalGrant")
      .values({
        id: randomUUID(),
        userId: learner.id,
        courseId: course.card.id,
        grantedBy: actor.id,
        createdAt: new Date().toISOString(),
      })
      .execute();
    await recordAudit(trx, actor, "practical.grant", learner.email, { courseId: course.card.id });
  });
  return { granted: true as const };
}

/** Sets the learner's time multiplier for every timed exam (1 removes it). Audited. */
export async function setTimeMultiplier(db: Kysely<DB>, actor: CurrentUser, userId: string, timeMultiplier: number) {
  const learner = await requireLearner(db, userId);
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("learnerAccommodation")
      .values({ userId, timeMultiplier, updatedBy: actor.id, updatedAt: now })
      .onConflict((oc) => oc.column("userId").doUpdateSet({ timeMultiplier, updatedBy: actor.id, updatedAt: now }))
      .execute();
    await recordAudit(trx, actor, "accommodation.set", learner.email, { timeMultiplier });
  });
  return { userId, timeMultiplier };
}
