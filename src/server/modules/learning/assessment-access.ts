/**
 * Who may take which assessment: a module quiz, the final exam or a recertification exam, and the
 * attempt rules that apply (docs/decisions/0012, 0028).
 */
import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden, notFound, unauthorized } from "../../errors.ts";
import type { HitCounter } from "../../limits/hit-counter.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse, QuestionBank } from "../courses/course-catalogue.ts";
import {
  canTakeQuiz,
  computeCourseState,
  FINAL_EXAM_ID,
  type LearnerRecords,
  loadLearnerRecords,
  NO_RECORDS,
  recordsOn,
} from "../progress/learner-state.ts";
import type { AttemptRules } from "./attempt-rules.ts";

export interface AssessmentDeps {
  db: Kysely<DB>;
  config: Config;
  /** Shared counters (preview limits). */
  counters: HitCounter;
}

/** A module quiz or the final exam, once the caller may take it. */
export interface Assessment {
  kind: "quiz" | "exam";
  /** The module id, or FINAL_EXAM_ID. */
  id: string;
  course: CatalogueCourse;
  bank: QuestionBank;
  moduleId: string | null;
  moduleTitle: string;
  nextModuleId: string | null;
  /** Lessons a failed attempt points back to when the drawn questions name none. */
  lessonIds: string[];
  user: CurrentUser | null;
  records: LearnerRecords;
  /** Enrolled learners' attempts are stored and limited; preview attempts are only graded. */
  recorded: boolean;
}

export function attemptRulesOf(config: Config, course: CatalogueCourse): AttemptRules {
  return {
    maxAttempts: course.assessment.maxAttempts ?? config.assessment.maxAttempts,
    cooldownHours: course.assessment.cooldownHours ?? config.assessment.cooldownHours,
  };
}

/** `read`: the user's records already read in this request (`currentLearner`), else they are read here. */
export async function quizAssessment(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
  read?: LearnerRecords,
): Promise<Assessment> {
  const module = course.modulesById.get(moduleId);
  if (!module?.quiz) throw notFound("Quiz not found.");
  const records =
    read ?? (user ? recordsOn(course, await loadLearnerRecords(db, user.id, course.card.id)) : NO_RECORDS);
  if (!canTakeQuiz(course, moduleId, records, computeCourseState(course, records))) {
    if (!user) throw unauthorized("Sign in and enrol to take this quiz.");
    if (!records.enrolled) throw forbidden(NOT_ENROLLED);
    throw forbidden("This quiz is locked. Complete the previous module first.");
  }
  return {
    kind: "quiz",
    id: moduleId,
    course,
    bank: module.quiz,
    moduleId,
    moduleTitle: module.title,
    nextModuleId: course.modules[module.position + 1]?.id ?? null,
    lessonIds: module.lessons.map((l) => l.id),
    user,
    records,
    recorded: !!user && records.enrolled,
  };
}

/** `read`: the user's records already read in this request (`currentLearner`), else they are read here. */
export async function examAssessment(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  read?: LearnerRecords,
): Promise<Assessment> {
  if (!course.exam) throw notFound("This course has no final exam.");
  if (!user) throw unauthorized("Sign in and enrol to take the final exam.");
  const records = read ?? recordsOn(course, await loadLearnerRecords(db, user.id, course.card.id));
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  if (!computeCourseState(course, records).examUnlocked)
    throw forbidden("The final exam opens once every module is complete.");
  return wholeCourseExam(FINAL_EXAM_ID, course, course.exam, user, records);
}

/** An exam over the whole course (the final exam, a recertification), always recorded. */
function wholeCourseExam(
  id: string,
  course: CatalogueCourse,
  bank: QuestionBank,
  user: CurrentUser,
  records: LearnerRecords,
): Assessment {
  return {
    kind: "exam",
    id,
    course,
    bank,
    moduleId: null,
    moduleTitle: course.card.title,
    nextModuleId: null,
    lessonIds: course.lessons.map((l) => l.id),
    user,
    records,
    recorded: true,
  };
}

/** The recertification exam's attempts (docs/decisions/0028), apart from the final exam's. */
export const RECERTIFICATION_ID = "#recertification";

/**
 * A recertification exam: the final exam's bank, drawn by its blueprint, timed, under the same
 * attempt, cooldown and time-multiplier rules. The caller (certificates) has checked that the learner
 * holds a certificate inside its renewal window; enrolment is not needed.
 */
export async function recertificationAssessment(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Assessment> {
  if (!course.exam) throw notFound("This course has no exam to recertify with.");
  const records = await loadLearnerRecords(db, user.id, course.card.id);
  // Always timed: the exam's own limit, else two minutes per drawn item.
  const bank = {
    ...course.exam,
    title: `Recertification exam: ${course.card.title}`,
    timeLimitMinutes: course.exam.timeLimitMinutes ?? 2 * examItemCount(course.exam),
  };
  return wholeCourseExam(RECERTIFICATION_ID, course, bank, user, records);
}

/** How many questions an exam draws. */
export const examItemCount = (bank: QuestionBank) => bank.blueprint?.reduce((n, b) => n + b.count, 0) ?? bank.draw;
