import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { describePassRule } from "#shared/practical-pass-rule.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import {
  type LearnerPractical,
  PRACTICAL_FILE_TYPES,
  PRACTICAL_MAX_FILES,
  PRACTICAL_MAX_TEXT,
  type PracticalRubric,
  type PracticalState,
  type PracticalSubmission,
} from "#shared/schemas/practical.ts";
import type { Config } from "../../config.ts";
import { isUniqueViolation } from "../../db/database.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest, conflict, forbidden, notFound } from "../../errors.ts";
import type { FileStorage } from "../../storage/file-storage.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse, CoursePractical } from "../courses/course-catalogue.ts";
import { computeCourseState, loadLearnerRecords } from "../progress/learner-state.ts";
import { ensureProgressRow } from "../progress/progress.service.ts";
import { detectPracticalFileType } from "./file-type.ts";
import {
  countGrants,
  insertFiles,
  insertSubmission,
  listSubmissions,
  reviewOf,
  type StoredFile,
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
  return {
    ...practical,
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
  const records = await loadLearnerRecords(deps.db, user.id, course.card.id);
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

export interface UploadedFile {
  name: string;
  data: Buffer;
}

const STATE_REFUSALS: Partial<Record<PracticalState, string>> = {
  locked: "The practical assessment opens once every module is complete.",
  waiting: "Your submission is waiting for an assessor. You can submit again if they ask you to.",
  passed: "You have already passed this practical assessment.",
  closed: "You have used every submission of this practical. An admin can allow another one.",
};

/** A safe display name: the file's own name without any path, at most 200 characters. */
const displayName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? "").replace(/[^\p{L}\p{N} ._()-]/gu, "_").slice(0, 200) || "file";

/**
 * Stores a submission: written text and up to 3 files whose type is checked by content. Files go to
 * storage first; the rows follow in one transaction, and the files are removed again if that fails.
 */
export async function submitPractical(
  deps: PracticalDeps,
  user: CurrentUser,
  course: CatalogueCourse,
  input: { text: string; files: UploadedFile[] },
): Promise<LearnerPractical> {
  const { submissions, state } = await learnerSituation(deps, user, course);
  const refusal = STATE_REFUSALS[state];
  if (refusal) throw conflict(refusal);
  if (!input.text && input.files.length === 0)
    throw badRequest("Write your work in the text box or attach at least one file.");
  if (input.files.length > PRACTICAL_MAX_FILES) throw badRequest(`Attach at most ${PRACTICAL_MAX_FILES} files.`);
  const files: (StoredFile & { data: Buffer })[] = [];
  for (const file of input.files) {
    const contentType = await detectPracticalFileType(file.data);
    if (!contentType)
      throw new AppError(
        415,
        `'${displayName(file.name)}' is not a PDF, a plain-text file or a common audio file (MP3, M4A, WAV, OGG, WebM, FLAC).`,
      );
    const id = randomUUID();
    files.push({
      id,
      submissionId: 0,
      name: displayName(file.name),
      contentType,
      size: file.data.length,
      storageKey: `practical/${id}`,
      data: file.data,
    });
  }
  for (const file of files) await deps.storage.put(file.storageKey, file.data);
  try {
    await deps.db.transaction().execute(async (trx) => {
      const number = await insertSubmission(trx, {
        userId: user.id,
        courseId: course.card.id,
        attempt: submissions.length + 1,
        body: input.text,
        now: new Date().toISOString(),
        courseVersion: course.version,
      });
      await insertFiles(
        trx,
        files.map(({ data: _data, ...f }) => ({ ...f, submissionId: number })),
      );
      await ensureProgressRow(trx, user.id, course.card.id);
    });
  } catch (error) {
    await Promise.all(files.map((f) => deps.storage.remove(f.storageKey).catch(() => {})));
    if (isUniqueViolation(error)) throw conflict("This submission was already received.");
    throw error;
  }
  return getLearnerPractical(deps, user, course);
}
