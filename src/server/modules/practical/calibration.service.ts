import { createHash } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type {
  CalibrationExemplar,
  CalibrationOverview,
  PracticalExemplar,
  ReviewInput,
} from "#shared/schemas/practical.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Catalogue, CatalogueCourse, CoursePractical } from "../courses/course-catalogue.ts";
import { findAssessorProfile } from "../staff/assessor-profile.ts";
import { coursesStaffedBy, isCourseStaff } from "../staff/course-staff.ts";
import { requirePractical, rubricOf } from "./practical.service.ts";
import { levelDistance, scoreReview } from "./scoring.ts";

/**
 * Calibration before live work (docs/decisions/0053): an assessor scores each of the practical's
 * exemplars in the review page; they are calibrated for the course while, under the rubric as it now
 * stands, their latest score of every exemplar is within one level of the agreed score on every
 * criterion, and the oldest of those scores is less than a year old. A rubric change (criteria, levels
 * or pass rule) starts it again.
 */

type Db = Kysely<DB> | Transaction<DB>;
export const CALIBRATION_VALID_MS = 365 * 24 * 3_600_000;

/** The rubric's identity for calibration: any change to its criteria, levels or pass rule changes it. */
export const rubricHash = (practical: CoursePractical) =>
  createHash("sha256")
    .update(
      JSON.stringify([
        practical.criteria.map((c) => [c.id, c.critical, c.levels.map((l) => [l.points, l.label, l.descriptor])]),
        practical.passRule,
      ]),
    )
    .digest("hex")
    .slice(0, 32);

interface ScoreRow {
  exemplarId: string;
  scores: string;
  withinOne: boolean;
  scoredAt: string;
}

/** Each exemplar's latest score under this rubric. */
async function latestScores(db: Db, userId: string, courseId: string, hash: string): Promise<Map<string, ScoreRow>> {
  const rows = await db
    .selectFrom("assessorCalibration")
    .select(["exemplarId", "scores", "withinOne", "scoredAt"])
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .where("rubricHash", "=", hash)
    .orderBy("scoredAt")
    .orderBy("id")
    .execute();
  return new Map(rows.map((r) => [r.exemplarId, r]));
}

/** Whether an assessor is calibrated for a course now, and until when. Admins need no calibration. */
export async function calibrationOf(
  db: Db,
  userId: string,
  course: CatalogueCourse,
  now = Date.now(),
): Promise<{ calibrated: boolean; until: string | null; latest: Map<string, ScoreRow> }> {
  const practical = course.practical;
  if (!practical) return { calibrated: false, until: null, latest: new Map() };
  const latest = await latestScores(db, userId, course.card.id, rubricHash(practical));
  const rows = practical.exemplars.map((e) => latest.get(e.id));
  if (rows.length === 0 || rows.some((r) => !r?.withinOne)) return { calibrated: false, until: null, latest };
  const oldest = Math.min(...rows.map((r) => new Date(r?.scoredAt ?? 0).getTime()));
  const until = oldest + CALIBRATION_VALID_MS;
  return until > now
    ? { calibrated: true, until: new Date(until).toISOString(), latest }
    : { calibrated: false, until: null, latest };
}

/** Whether this user may do live review work on the course: an admin, or an assigned, calibrated assessor. */
export async function mayAssessLive(db: Db, user: CurrentUser, course: CatalogueCourse): Promise<boolean> {
  if (user.role === "admin") return true;
  if (!(await isCourseStaff(db, user, course.card.id, "assessor"))) return false;
  return (await calibrationOf(db, user.id, course)).calibrated;
}

function resultOf(practical: CoursePractical, exemplar: PracticalExemplar, row: ScoreRow | undefined) {
  if (!row) return null;
  const mine = new Map(
    (JSON.parse(row.scores) as { criterionId: string; points: number }[]).map((s) => [s.criterionId, s.points]),
  );
  return {
    scoredAt: row.scoredAt,
    withinOne: row.withinOne,
    criteria: exemplar.scores.map((agreed) => {
      const points = mine.get(agreed.criterionId) ?? 0;
      return {
        criterionId: agreed.criterionId,
        mine: points,
        agreed: agreed.points,
        withinOne: levelDistance(practical, agreed.criterionId, points, agreed.points) <= 1,
      };
    }),
    decision: exemplar.decision,
    rationale: exemplar.rationale,
    band: exemplar.band,
  };
}

/** The assessor's courses with their calibration, and their qualifications. */
export async function calibrationOverview(
  db: Db,
  catalogue: Catalogue,
  assessor: CurrentUser,
): Promise<CalibrationOverview> {
  const ids =
    assessor.role === "admin"
      ? catalogue.courses.filter((c) => c.practical).map((c) => c.card.id)
      : await coursesStaffedBy(db, assessor.id, "assessor");
  const courses = [];
  for (const id of ids) {
    const course = catalogue.byId.get(id);
    const practical = course?.practical;
    if (!course || !practical) continue;
    const status = await calibrationOf(db, assessor.id, course);
    courses.push({
      courseId: id,
      courseTitle: course.card.title,
      practicalTitle: practical.title,
      assessorRequirements: practical.assessorRequirements,
      calibrated: status.calibrated,
      calibratedUntil: status.until,
      exemplars: practical.exemplars.map((e, i) => ({
        id: e.id,
        number: i + 1,
        result: resultOf(practical, e, status.latest.get(e.id)),
      })),
    });
  }
  return { profile: await findAssessorProfile(db, assessor.id), courses };
}

async function requireCalibrationCourse(db: Db, catalogue: Catalogue, assessor: CurrentUser, courseId: string) {
  const course = catalogue.byId.get(courseId);
  if (!course?.practical) throw notFound("This course has no practical assessment.");
  if (!(await isCourseStaff(db, assessor, courseId, "assessor")))
    throw forbidden("Only assessors assigned to this course may calibrate on its exemplars.");
  return course;
}

function requireExemplar(practical: CoursePractical, exemplarId: string) {
  const index = practical.exemplars.findIndex((e) => e.id === exemplarId);
  const exemplar = practical.exemplars[index];
  if (!exemplar) throw notFound("Exemplar not found.");
  return { exemplar, number: index + 1 };
}

/** An exemplar as the review page shows it; the agreed scores only once the assessor has scored it. */
export async function getExemplar(
  db: Db,
  catalogue: Catalogue,
  assessor: CurrentUser,
  courseId: string,
  exemplarId: string,
): Promise<CalibrationExemplar> {
  const course = await requireCalibrationCourse(db, catalogue, assessor, courseId);
  const practical = requirePractical(course);
  const { exemplar, number } = requireExemplar(practical, exemplarId);
  const status = await calibrationOf(db, assessor.id, course);
  return {
    courseId,
    courseTitle: course.card.title,
    exemplarId,
    number,
    text: exemplar.text,
    rubric: rubricOf(practical),
    result: resultOf(practical, exemplar, status.latest.get(exemplarId)),
    calibrated: status.calibrated,
  };
}

/** Records the assessor's scores of an exemplar against the agreed ones (scored again: the latest counts). Audited. */
export async function scoreExemplar(
  db: Kysely<DB>,
  catalogue: Catalogue,
  assessor: CurrentUser,
  courseId: string,
  exemplarId: string,
  input: ReviewInput,
): Promise<CalibrationExemplar> {
  const course = await requireCalibrationCourse(db, catalogue, assessor, courseId);
  const practical = requirePractical(course);
  const { exemplar } = requireExemplar(practical, exemplarId);
  const scored = scoreReview(practical, input);
  const agreed = new Map(exemplar.scores.map((s) => [s.criterionId, s.points]));
  const withinOne = scored.scores.every(
    (s) => levelDistance(practical, s.criterionId, s.points, agreed.get(s.criterionId) ?? -99) <= 1,
  );
  await db.transaction().execute(async (trx) => {
    await requireLiveAccount(trx, assessor.id);
    await trx
      .insertInto("assessorCalibration")
      .values({
        userId: assessor.id,
        courseId,
        exemplarId,
        rubricHash: rubricHash(practical),
        scores: JSON.stringify(scored.scores.map(({ criterionId, points }) => ({ criterionId, points }))),
        withinOne,
        scoredAt: new Date().toISOString(),
      })
      .execute();
    await recordAudit(trx, assessor, "practical.calibration", `${courseId}/${exemplarId}`, { withinOne });
  });
  return getExemplar(db, catalogue, assessor, courseId, exemplarId);
}
