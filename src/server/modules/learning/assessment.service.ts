import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ExamRules, Quiz, QuizResult, QuizSubmission } from "#shared/schemas/learning.ts";
import type { Config } from "../../config.ts";
import { writeTransaction } from "../../db/group-commit.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound, tooManyAttempts, unauthorized } from "../../errors.ts";
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
} from "../progress/learner-state.ts";
import { ensureProgressRow } from "../progress/progress.service.ts";
import { PASS_MARK, scorePercent } from "../progress/progress-formula.ts";
import {
  closeAttempt,
  insertOpenAttempt,
  listAttempts,
  listGrantTimes,
  type StoredAttempt,
  timeMultiplierOf,
} from "./assessment.repository.ts";
import { type AttemptRules, attemptAllowance } from "./attempt-rules.ts";
import { type DrawnQuestion, drawExamByBlueprint, drawQuestions } from "./draw.ts";
import { takePreviewGrading, takePreviewStart } from "./preview-limits.ts";
import { previewAttemptId, readPreviewAttemptId } from "./preview-token.ts";

export interface AssessmentDeps {
  db: Kysely<DB>;
  config: Config;
  /** Shared counters (preview limits). */
  counters: HitCounter;
}

/** A module quiz or the final exam, once the caller may take it. */
interface Assessment {
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

export async function quizAssessment(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
): Promise<Assessment> {
  const module = course.modulesById.get(moduleId);
  if (!module?.quiz) throw notFound("Quiz not found.");
  const records = user ? await loadLearnerRecords(db, user.id, course.card.id) : NO_RECORDS;
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

export async function examAssessment(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
): Promise<Assessment> {
  if (!course.exam) throw notFound("This course has no final exam.");
  if (!user) throw unauthorized("Sign in and enrol to take the final exam.");
  const records = await loadLearnerRecords(db, user.id, course.card.id);
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  if (!computeCourseState(course, records).examUnlocked)
    throw forbidden("The final exam opens once every module is complete.");
  return {
    kind: "exam",
    id: FINAL_EXAM_ID,
    course,
    bank: course.exam,
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
  return {
    kind: "exam",
    id: RECERTIFICATION_ID,
    course,
    // Always timed: the exam's own limit, else two minutes per drawn item.
    bank: {
      ...course.exam,
      title: `Recertification exam: ${course.card.title}`,
      timeLimitMinutes: course.exam.timeLimitMinutes ?? 2 * examItemCount(course.exam),
    },
    moduleId: null,
    moduleTitle: course.card.title,
    nextModuleId: null,
    lessonIds: course.lessons.map((l) => l.id),
    user,
    records,
    recorded: true,
  };
}

const examItemCount = (bank: QuestionBank) => bank.blueprint?.reduce((n, b) => n + b.count, 0) ?? bank.draw;

export type { Assessment };

const graceMs = (config: Config) => config.assessment.examGraceSeconds * 1000;
const isOverdue = (attempt: StoredAttempt, config: Config, now: Date) =>
  !!attempt.deadlineAt && now.getTime() > new Date(attempt.deadlineAt).getTime() + graceMs(config);

/**
 * A timed attempt left open past its limit and grace counts as a failed attempt (score 0),
 * so leaving an exam unfinished never gives a free look at its questions.
 */
async function closeOverdue(deps: AssessmentDeps, a: Assessment, attempts: StoredAttempt[], now: Date) {
  for (const attempt of attempts) {
    if (attempt.submittedAt || !isOverdue(attempt, deps.config, now)) continue;
    const at = attempt.deadlineAt!;
    await deps.db.transaction().execute(async (trx) => {
      if (!(await closeAttempt(trx, attempt.id, { submittedAt: at, score: 0, passed: false }))) return;
      await trx
        .insertInto("quizAttempt")
        .values({
          id: attempt.id,
          userId: a.user!.id,
          courseId: a.course.card.id,
          moduleId: a.id,
          score: 0,
          correctCount: 0,
          total: attempt.questions.length,
          passed: 0,
          answers: "{}",
          createdAt: at,
        })
        .execute();
    });
    attempt.submittedAt = at;
    attempt.score = 0;
  }
}

async function attemptState(deps: AssessmentDeps, a: Assessment, now: Date) {
  const userId = a.user!.id;
  const [attempts, grants] = await Promise.all([
    listAttempts(deps.db, userId, a.course.card.id, a.id),
    listGrantTimes(deps.db, userId, a.course.card.id, a.id),
  ]);
  await closeOverdue(deps, a, attempts, now);
  const rules = attemptRulesOf(deps.config, a.course);
  const submitted = attempts.filter((x) => x.submittedAt).map((x) => new Date(x.submittedAt!));
  return {
    attempts,
    open: attempts.find((x) => !x.submittedAt) ?? null,
    rules,
    allowance: (extra: Date[] = []) => attemptAllowance([...submitted, ...extra], grants, rules, now),
  };
}

function questionsOf(a: Assessment, drawn: DrawnQuestion[]): Quiz["questions"] {
  return drawn.map((d) => {
    const q = a.bank.questions.find((x) => x.id === d.id);
    if (!q) throw conflict("This attempt no longer matches the course content. Start a new attempt.");
    return {
      id: q.id,
      question: q.question,
      options: d.options.map((id) => ({ id, text: q.options.find((o) => o.id === id)?.text ?? "" })),
    };
  });
}

function toQuiz(
  a: Assessment,
  rules: AttemptRules,
  attempt: { id: string; questions: DrawnQuestion[]; startedAt: string; deadlineAt: string | null },
  attemptsLeft: number | null,
): Quiz {
  const stats = a.recorded ? a.records.quizStats.get(a.id) : undefined;
  return {
    kind: a.kind,
    courseId: a.course.card.id,
    moduleId: a.moduleId,
    moduleTitle: a.moduleTitle,
    title: a.bank.title,
    attemptId: attempt.id,
    questions: questionsOf(a, attempt.questions),
    startedAt: attempt.startedAt,
    deadlineAt: attempt.deadlineAt,
    timeLimitMinutes: a.bank.timeLimitMinutes,
    passMark: PASS_MARK,
    attemptsLeft,
    maxAttempts: rules.maxAttempts,
    previous: stats
      ? { score: stats.score, bestScore: stats.bestScore, attempts: stats.attempts, passed: stats.passed }
      : null,
    recorded: a.recorded,
    nextModuleId: a.nextModuleId,
  };
}

function refuse(nextAttemptAt: Date, rules: AttemptRules): never {
  throw tooManyAttempts(
    `You have used your ${rules.maxAttempts} attempts. Your next attempt opens at ${nextAttemptAt.toUTCString()}.`,
    nextAttemptAt.toISOString(),
  );
}

/** The exam's rules for this learner, before Start: draws nothing and starts no clock. */
export async function examRules(deps: AssessmentDeps, a: Assessment): Promise<ExamRules> {
  const state = await attemptState(deps, a, new Date());
  const { attemptsLeft, nextAttemptAt } = state.allowance();
  const limit = a.bank.timeLimitMinutes;
  const multiplier = limit ? await timeMultiplierOf(deps.db, a.user!.id) : 1;
  const stats = a.records.quizStats.get(a.id);
  return {
    courseId: a.course.card.id,
    title: a.bank.title,
    questionCount: examItemCount(a.bank),
    timeLimitMinutes: limit,
    timeMultiplier: multiplier,
    yourTimeLimitMinutes: limit ? limit * multiplier : null,
    passMark: PASS_MARK,
    maxAttempts: state.rules.maxAttempts,
    attemptsLeft,
    nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    inProgress: state.open ? { deadlineAt: state.open.deadlineAt } : null,
    previous: stats
      ? { score: stats.score, bestScore: stats.bestScore, attempts: stats.attempts, passed: stats.passed }
      : null,
  };
}

/**
 * Starts an attempt (a fresh draw) or resumes the open one; the questions never carry answers.
 * `visitor` (the client's address) counts a visitor's preview starts.
 */
export async function startOrResumeAttempt(deps: AssessmentDeps, a: Assessment, visitor: string): Promise<Quiz> {
  const now = new Date();
  const rules = attemptRulesOf(deps.config, a.course);
  if (!a.recorded) {
    await takePreviewStart(deps.counters, visitor);
    const startedAt = now.toISOString();
    const drawn = drawQuestions(a.bank.questions, a.bank.draw, new Map());
    const id = previewAttemptId(deps.config.authSecret, a.course.card.id, a.id, startedAt, drawn);
    return toQuiz(a, rules, { id, questions: drawn, startedAt, deadlineAt: null }, null);
  }
  // The allowance and the insert are one atomic step: the insert takes the number after the last
  // attempt the allowance saw, so when another instance adds an attempt in between, it does nothing
  // and the allowance is computed again from what is there now.
  for (let tries = 0; tries < 3; tries++) {
    const state = await attemptState(deps, a, now);
    if (state.open) return toQuiz(a, rules, state.open, state.allowance().attemptsLeft);
    const { attemptsLeft, nextAttemptAt } = state.allowance();
    if (attemptsLeft === 0 && nextAttemptAt) refuse(nextAttemptAt, rules);
    const timesSeen = new Map<string, number>();
    for (const attempt of state.attempts)
      for (const q of attempt.questions) timesSeen.set(q.id, (timesSeen.get(q.id) ?? 0) + 1);
    const limit = a.bank.timeLimitMinutes;
    const multiplier = limit ? await timeMultiplierOf(deps.db, a.user!.id) : 1;
    const opened = await insertOpenAttempt(deps.db, {
      id: randomUUID(),
      userId: a.user!.id,
      courseId: a.course.card.id,
      assessmentId: a.id,
      questions:
        a.kind === "exam"
          ? drawExamByBlueprint(a.course, timesSeen)
          : drawQuestions(a.bank.questions, a.bank.draw, timesSeen),
      startedAt: now.toISOString(),
      deadlineAt: limit ? new Date(now.getTime() + limit * multiplier * 60_000).toISOString() : null,
      ordinal: Math.max(0, ...state.attempts.map((x) => x.ordinal)) + 1,
    });
    if (!opened) continue;
    const open = (await listAttempts(deps.db, a.user!.id, a.course.card.id, a.id)).find((x) => !x.submittedAt);
    if (open) return toQuiz(a, rules, open, state.allowance().attemptsLeft);
  }
  throw conflict("The attempt could not be started. Please try again.");
}

function gradeAnswers(a: Assessment, drawn: DrawnQuestion[], answers: Record<string, string>) {
  const drawnIds = new Set(drawn.map((d) => d.id));
  for (const id of Object.keys(answers))
    if (!drawnIds.has(id)) throw badRequest(`Question '${id}' is not part of this attempt.`);
  const questions = drawn.map((d) => {
    const q = a.bank.questions.find((x) => x.id === d.id);
    if (!q) throw conflict("This attempt no longer matches the course content. Start a new attempt.");
    const answer = answers[q.id];
    if (answer === undefined) throw badRequest("Answer every question before submitting.");
    if (!d.options.includes(answer)) throw badRequest(`'${answer}' is not an option of question '${q.id}'.`);
    return { q, correct: answer === q.correctAnswer };
  });
  const correctCount = questions.filter((r) => r.correct).length;
  const score = scorePercent(correctCount, questions.length);
  return { questions, correctCount, score, passed: score >= PASS_MARK };
}

function toResult(
  a: Assessment,
  graded: ReturnType<typeof gradeAnswers>,
  extra: Pick<QuizResult, "recorded" | "bestScore" | "attemptsLeft" | "nextAttemptAt">,
): QuizResult {
  const { questions, correctCount, score, passed } = graded;
  const named = new Set(questions.map(({ q }) => q.lesson).filter((id): id is string => !!id));
  const revisit = named.size > 0 ? named : new Set(a.lessonIds);
  return {
    score,
    correctCount,
    incorrectCount: questions.length - correctCount,
    total: questions.length,
    passed,
    passMark: PASS_MARK,
    ...extra,
    review: passed
      ? questions.map(({ q, correct }) => ({
          questionId: q.id,
          correct,
          correctAnswer: q.correctAnswer,
          explanation: q.explanation,
        }))
      : [],
    lessonsToRevisit: passed
      ? []
      : a.course.lessons.filter((l) => revisit.has(l.id)).map((l) => ({ id: l.id, title: l.title })),
  };
}

/** Grades exactly the questions drawn for the attempt. Enrolled learners' results are stored. */
export async function submitAttempt(deps: AssessmentDeps, a: Assessment, body: QuizSubmission): Promise<QuizResult> {
  if (!a.recorded) {
    const preview = body.attemptId
      ? readPreviewAttemptId(deps.config.authSecret, body.attemptId, a.course.card.id, a.id)
      : null;
    if (!preview) throw badRequest("Start the quiz first: this attempt is unknown.");
    const graded = gradeAnswers(a, preview.questions, body.answers);
    await takePreviewGrading(deps.counters, preview);
    // A preview result names no answer, even after a pass: the same bank serves recorded attempts.
    const result = toResult(a, graded, { recorded: false, bestScore: null, attemptsLeft: null, nextAttemptAt: null });
    return { ...result, review: [] };
  }
  const now = new Date();
  const user = a.user!;
  const attempts = await listAttempts(deps.db, user.id, a.course.card.id, a.id);
  const open = attempts.find((x) => !x.submittedAt);
  if (body.attemptId && body.attemptId !== open?.id) {
    const known = attempts.find((x) => x.id === body.attemptId);
    if (!known) throw badRequest("This attempt is unknown.");
    if (isOverdue(known, deps.config, now) && known.score === 0)
      throw conflict("Time is up: this attempt's time limit has passed, so it was not accepted.");
    throw conflict("This attempt has already been submitted. Start a new attempt.");
  }
  if (!open) throw conflict("No attempt is open. Start the quiz first.");
  if (isOverdue(open, deps.config, now)) {
    await attemptState(deps, a, now);
    throw conflict("Time is up: this attempt's time limit has passed, so it was not accepted.");
  }
  const graded = gradeAnswers(a, open.questions, body.answers);
  const submittedAt = now.toISOString();
  await writeTransaction(deps.db, async (trx) => {
    if (!(await closeAttempt(trx, open.id, { submittedAt, score: graded.score, passed: graded.passed })))
      throw conflict("This attempt has already been submitted. Start a new attempt.");
    await ensureProgressRow(trx, user.id, a.course.card.id);
    await trx
      .insertInto("quizAttempt")
      .values({
        id: open.id,
        userId: user.id,
        courseId: a.course.card.id,
        moduleId: a.id,
        score: graded.score,
        correctCount: graded.correctCount,
        total: graded.questions.length,
        passed: graded.passed ? 1 : 0,
        answers: JSON.stringify(body.answers),
        createdAt: submittedAt,
      })
      .execute();
  });
  const state = await attemptState(deps, a, now);
  const { attemptsLeft, nextAttemptAt } = state.allowance();
  return toResult(a, graded, {
    recorded: true,
    bestScore: Math.max(graded.score, a.records.quizStats.get(a.id)?.bestScore ?? 0),
    attemptsLeft,
    nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
  });
}
