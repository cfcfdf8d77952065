/**
 * Starting (or resuming) and submitting an attempt. Who may take which assessment is in
 * `assessment-access.ts`, the draw in `draw.ts`, deadlines and attempts left in `deadlines.ts`, and
 * grading (where the pass is decided, once) in `grading.ts`.
 */

import { randomUUID } from "node:crypto";
import type { ExamRules, Quiz, QuizResult, QuizSubmission } from "#shared/schemas/learning.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import { writeTransaction } from "../../db/fast-paths.ts";
import { badRequest, conflict, notFound, tooManyAttempts } from "../../errors.ts";
import { timeMultiplierOf } from "../progress/accommodation.ts";
import { ensureProgressRow } from "../progress/progress.service.ts";
import { PASS_MARK } from "../progress/progress-formula.ts";
import {
  type AttemptReads,
  insertOpenAttempt,
  listAttempts,
  listGrantTimes,
  storeGradedAttempt,
} from "./assessment.repository.ts";
import { type Assessment, type AssessmentDeps, attemptRulesOf, examItemCount } from "./assessment-access.ts";
import type { AttemptRules } from "./attempt-rules.ts";
import { attemptState, isOverdue } from "./deadlines.ts";
import { type DrawnQuestion, drawExamByBlueprint, drawQuestions } from "./draw.ts";
import { gradeAnswers, toResult } from "./grading.ts";
import { takePreviewGrading, takePreviewStart } from "./preview-limits.ts";
import { previewAttemptId, readPreviewAttemptId } from "./preview-token.ts";

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

/**
 * The exam's rules for this learner, before Start: draws nothing and starts no clock. `read`: the
 * learner's attempts as read with the session (PostgreSQL), else they are read here.
 */
export async function examRules(deps: AssessmentDeps, a: Assessment, read?: AttemptReads): Promise<ExamRules> {
  const state = await attemptState(deps, a, new Date(), read);
  const { attemptsLeft, nextAttemptAt } = state.allowance();
  const limit = a.bank.timeLimitMinutes;
  const multiplier = limit ? (read?.timeMultiplier ?? (await timeMultiplierOf(deps.db, a.user!.id))) : 1;
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

export const NO_OPEN_ATTEMPT = "No attempt is open. Start one first.";

/**
 * The open attempt, as it was drawn, for a reload: reading starts nothing (a start is a POST behind the
 * origin check, decision 0051). A preview attempt lives in its token only, so it is never open here.
 */
export async function readOpenAttempt(deps: AssessmentDeps, a: Assessment, read?: AttemptReads): Promise<Quiz> {
  if (!a.recorded) throw notFound(NO_OPEN_ATTEMPT);
  const state = await attemptState(deps, a, new Date(), read);
  if (!state.open) throw notFound(NO_OPEN_ATTEMPT);
  return toQuiz(a, state.rules, state.open, state.allowance().attemptsLeft);
}

/**
 * Starts an attempt (a fresh draw) or resumes the open one; the questions never carry answers.
 * `visitor` (the client's address) counts a visitor's preview starts. `read`: the learner's attempts
 * as read with the session (PostgreSQL), else they are read here.
 */
export async function startOrResumeAttempt(
  deps: AssessmentDeps,
  a: Assessment,
  visitor: string,
  read?: AttemptReads,
): Promise<Quiz> {
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
  // The attempts read with the session serve the first try only; a retry reads them again.
  for (let tries = 0, known = read; tries < 3; tries++, known = undefined) {
    const state = await attemptState(deps, a, now, known);
    if (state.open) return toQuiz(a, rules, state.open, state.allowance().attemptsLeft);
    const { attemptsLeft, nextAttemptAt } = state.allowance();
    if (attemptsLeft === 0 && nextAttemptAt) refuse(nextAttemptAt, rules);
    const timesSeen = new Map<string, number>();
    for (const attempt of state.attempts)
      for (const q of attempt.questions) timesSeen.set(q.id, (timesSeen.get(q.id) ?? 0) + 1);
    const limit = a.bank.timeLimitMinutes;
    const multiplier = limit ? (known?.timeMultiplier ?? (await timeMultiplierOf(deps.db, a.user!.id))) : 1;
    const attempt = {
      id: randomUUID(),
      questions:
        a.kind === "exam"
          ? drawExamByBlueprint(a.course, timesSeen)
          : drawQuestions(a.bank.questions, a.bank.draw, timesSeen),
      startedAt: now.toISOString(),
      deadlineAt: limit ? new Date(now.getTime() + limit * multiplier * 60_000).toISOString() : null,
    };
    const userId = a.user!.id;
    // No attempt for an account erased since its session was read (decision 0051).
    const opened = await writeTransaction(deps.db, async (trx) => {
      await requireLiveAccount(trx, userId);
      return insertOpenAttempt(trx, {
        ...attempt,
        userId,
        courseId: a.course.card.id,
        assessmentId: a.id,
        ordinal: Math.max(0, ...state.attempts.map((x) => x.ordinal)) + 1,
        courseVersion: a.course.version,
      });
    });
    // Inserted: it is the open attempt (one per learner and assessment, a unique index), as stored.
    if (opened) return toQuiz(a, rules, attempt, attemptsLeft);
  }
  throw conflict("The attempt could not be started. Please try again.");
}

/** Grades exactly the questions drawn for the attempt. Enrolled learners' results are stored. */
export async function submitAttempt(
  deps: AssessmentDeps,
  a: Assessment,
  body: QuizSubmission,
  read?: AttemptReads,
): Promise<QuizResult> {
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
  const attempts = read?.attempts ?? (await listAttempts(deps.db, user.id, a.course.card.id, a.id));
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
    await attemptState(deps, a, now, read);
    throw conflict("Time is up: this attempt's time limit has passed, so it was not accepted.");
  }
  const graded = gradeAnswers(a, open.questions, body.answers);
  const submittedAt = now.toISOString();
  const stored = await storeGradedAttempt(
    deps.db,
    {
      id: open.id,
      userId: user.id,
      courseId: a.course.card.id,
      moduleId: a.id,
      score: graded.score,
      correctCount: graded.correctCount,
      total: graded.questions.length,
      passed: graded.passed,
      answers: JSON.stringify(body.answers),
      createdAt: submittedAt,
      courseVersion: a.course.version,
    },
    // The progress row read with the records is there already (decision 0047).
    a.records.progress ? undefined : (trx) => ensureProgressRow(trx, user.id, a.course.card.id),
  );
  if (!stored) throw conflict("This attempt has already been submitted. Start a new attempt.");
  // What is left after this submission: the attempts read before it, this one now submitted.
  open.submittedAt = submittedAt;
  open.score = graded.score;
  const grants = read?.grants ?? (await listGrantTimes(deps.db, user.id, a.course.card.id, a.id));
  const state = await attemptState(deps, a, now, { attempts, grants, timeMultiplier: 1 });
  const { attemptsLeft, nextAttemptAt } = state.allowance();
  return toResult(a, graded, {
    recorded: true,
    bestScore: Math.max(graded.score, a.records.quizStats.get(a.id)?.bestScore ?? 0),
    attemptsLeft,
    nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
  });
}
