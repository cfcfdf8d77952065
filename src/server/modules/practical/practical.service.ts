import type { Kysely } from "kysely";
import { describePassRule } from "#shared/practical-pass-rule.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import {
  isRecording,
  type LearnerPractical,
  PRACTICAL_FILE_TYPES,
  PRACTICAL_MAX_FILES,
  PRACTICAL_MAX_TEXT,
  type PracticalRubric,
  type PracticalState,
  type PracticalSubmission,
} from "#shared/schemas/practical.ts";
import type { Config } from "../../config.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import { isUniqueViolation } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import type { FileStorage } from "../../storage/file-storage.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse, CoursePractical } from "../courses/course-catalogue.ts";
import { computeCourseState, loadLearnerRecords, recordsOn } from "../progress/learner-state.ts";
import { ensureProgressRow } from "../progress/progress.service.ts";
import {
  countGrants,
  insertFiles,
  insertSubmission,
  listSubmissions,
  reviewOf,
  type StoredSubmission,
} from "./practical.repository.ts";

/** Resubmissions after the first submission; an admin may grant more (decisions page). */
export const PRACTICAL_RESUBMISSIONS = 2;

export interface PracticalDeps {
  db: Kysely<DB>;
  config: Config;
  storage: FileStorage;
}

export function rubricOf(practical: CoursePractical): PracticalRubric {
  // The exemplars' agreed scores are for assessors' calibration only: never in a rubric.
  const { exemplars: _exemplars, ...published } = practical;
  return {
    ...published,
    passRuleText: describePassRule(practical),
    maxPoints: practical.criteria.reduce((sum, c) => sum + Math.max(...c.levels.map((l) => l.points)), 0),
  };
}

export function requirePractical(course: CatalogueCourse): CoursePractical {
  if (!course.practical) throw notFound("This course has no practical assessment.");
  return course.practical;
}

function stateOf(submissions: StoredSubmission[], unlocked: boolean, allowed: number): PracticalState {
  if (submissions.some((s) => s.status === "passed")) return "passed";
  if (submissions.some((s) => s.status === "submitted" || s.status === "in-review")) return "waiting";
  if (!unlocked) return "locked";
  if (submissions.length >= allowed) return "closed";
  return submissions.length > 0 ? "resubmit" : "open";
}

const toSubmission = (s: StoredSubmission): PracticalSubmission => ({
  number: s.number,
  attempt: s.attempt,
  status: s.status,
  submittedAt: s.submittedAt,
  text: s.body,
  files: s.files.map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, size: f.size })),
  review: reviewOf(s),
});

async function learnerSituation(deps: PracticalDeps, user: CurrentUser, course: CatalogueCourse) {
  const practical = requirePractical(course);
  const records = recordsOn(course, await loadLearnerRecords(deps.db, user.id, course.card.id));
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  const [submissions, grants] = await Promise.all([
    listSubmissions(deps.db, user.id, course.card.id),
    countGrants(deps.db, user.id, course.card.id),
  ]);
  const allowed = 1 + PRACTICAL_RESUBMISSIONS + grants;
  const unlocked = computeCourseState(course, records).practicalUnlocked;
  return { practical, submissions, allowed, state: stateOf(submissions, unlocked, allowed) };
}

/** The learner's view of a course's practical: brief, rubric, state and every submission with its review. */
export async function getLearnerPractical(
  deps: PracticalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<LearnerPractical> {
  const { practical, submissions, allowed, state } = await learnerSituation(deps, user, course);
  return {
    courseId: course.card.id,
    courseTitle: course.card.title,
    rubric: rubricOf(practical),
    state,
    submissionsLeft: state === "passed" ? 0 : Math.max(0, allowed - submissions.length),
    expectedReviewDays: deps.config.practical.expectedReviewDays,
    limits: {
      maxTextChars: PRACTICAL_MAX_TEXT,
      maxFiles: PRACTICAL_MAX_FILES,
      maxFileBytes: deps.config.practical.maxFileBytes,
      fileTypes: [...PRACTICAL_FILE_TYPES],
    },
    submissions: submissions.map(toSubmission),
  };
}

/** A file of a submission, already in storage under its key (streamed there as it arrived). */
export interface StoredUpload {
  id: string;
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
}

const STATE_REFUSALS: Partial<Record<PracticalState, string>> = {
  locked: "The practical assessment opens once every module is complete.",
  waiting: "Your submission is waiting for an assessor. You can submit again if they ask you to.",
  passed: "You have already passed this practical assessment.",
  closed: "You have used every submission of this practical. An admin can allow another one.",
};

/**
 * Who may submit, decided before any byte of the body is read (decision 0051): enrolled, the practical
 * open to them, a submission left. Returns the attempt number the submission will take.
 */
export async function checkMaySubmit(
  deps: PracticalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<{ attempt: number }> {
  const { submissions, state } = await learnerSituation(deps, user, course);
  const refusal = STATE_REFUSALS[state];
  if (refusal) throw conflict(refusal);
  return { attempt: submissions.length + 1 };
}

/** A safe display name: the file's own name without any path, at most 200 characters. */
export const displayName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? "").replace(/[^\p{L}\p{N} ._()-]/gu, "_").slice(0, 200) || "file";

/** The refusal of a file whose content is none of the accepted types. */
export const fileTypeRefusal = (name: string) =>
  new AppError(
    415,
    `'${displayName(name)}' is not a PDF, a plain-text file, a common audio file (MP3, M4A, WAV, OGG, WebM, FLAC) or a video (MP4, WebM, MOV).`,
  );

/**
 * Records a submission whose files are already in storage: the rows in one transaction, under the
 * account's lock (an erasure meanwhile refuses it). The caller removes the stored files when this throws.
 */
export async function recordSubmission(
  deps: PracticalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
  allowed: { attempt: number },
  input: { text: string; files: StoredUpload[] },
): Promise<LearnerPractical> {
  if (!input.text && input.files.length === 0)
    throw badRequest("Write your work in the text box or attach at least one file.");
  if (input.files.length > PRACTICAL_MAX_FILES) throw badRequest(`Attach at most ${PRACTICAL_MAX_FILES} files.`);
  // A transcript shows neither that a session happened nor who coached: the recording is the evidence.
  if (requirePractical(course).evidence === "recording" && !input.files.some((f) => isRecording(f.contentType)))
    throw badRequest(
      "Attach the audio or video recording of the session (a transcript may go beside it, never instead of it).",
    );
  try {
    await deps.db.transaction().execute(async (trx) => {
      // Erased meanwhile: refused, and the caller removes the files just stored (decision 0051).
      await requireLiveAccount(trx, user.id);
      const number = await insertSubmission(trx, {
        userId: user.id,
        courseId: course.card.id,
        attempt: allowed.attempt,
        body: input.text,
        now: new Date().toISOString(),
        courseVersion: course.version,
      });
      await insertFiles(
        trx,
        input.files.map((f) => ({ ...f, submissionId: number })),
      );
      await ensureProgressRow(trx, user.id, course.card.id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("This submission was already received.");
    throw error;
  }
  return getLearnerPractical(deps, user, course);
}
