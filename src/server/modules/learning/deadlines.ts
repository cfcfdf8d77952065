/** Timed attempts: the deadline with its grace, closing overdue attempts, and the attempts left. */
import type { Config } from "../../config.ts";
import {
  type AttemptReads,
  closeAttempt,
  listAttempts,
  listGrantTimes,
  recordQuizAttempt,
  type StoredAttempt,
} from "./assessment.repository.ts";
import { type Assessment, type AssessmentDeps, attemptRulesOf } from "./assessment-access.ts";
import { attemptAllowance } from "./attempt-rules.ts";

const graceMs = (config: Config) => config.assessment.examGraceSeconds * 1000;
export const isOverdue = (attempt: StoredAttempt, config: Config, now: Date) =>
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
      await recordQuizAttempt(trx, {
        id: attempt.id,
        userId: a.user!.id,
        courseId: a.course.card.id,
        moduleId: a.id,
        score: 0,
        correctCount: 0,
        total: attempt.questions.length,
        passed: false,
        answers: "{}",
        createdAt: at,
        courseVersion: a.course.version,
      });
    });
    attempt.submittedAt = at;
    attempt.score = 0;
  }
}

/** `read`: the attempts and grants already read in this request (`sessionWithAttempts`), else read here. */
export async function attemptState(deps: AssessmentDeps, a: Assessment, now: Date, read?: AttemptReads) {
  const userId = a.user!.id;
  const [attempts, grants] = read
    ? [read.attempts, read.grants]
    : await Promise.all([
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
