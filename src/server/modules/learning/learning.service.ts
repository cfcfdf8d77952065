import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { Quiz, QuizResult } from "#shared/schemas/learning.ts";
import { writeTransaction } from "../../db/group-commit.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, forbidden, notFound, unauthorized } from "../../errors.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { canTakeQuiz, computeCourseState, loadLearnerRecords, NO_RECORDS } from "../progress/learner-state.ts";
import { ensureProgressRow } from "../progress/progress.service.ts";
import { PASS_MARK, scorePercent } from "../progress/progress-formula.ts";

async function quizAccess(db: Kysely<DB>, user: CurrentUser | null, course: CatalogueCourse, moduleId: string) {
  const module = course.modulesById.get(moduleId);
  if (!module?.quiz) throw notFound("Quiz not found.");
  const records = user ? await loadLearnerRecords(db, user.id, course.card.id) : NO_RECORDS;
  const state = computeCourseState(course, records);
  if (!canTakeQuiz(course, moduleId, records, state)) {
    if (!user) throw unauthorized("Sign in and enrol to take this quiz.");
    if (!records.enrolled) throw forbidden(NOT_ENROLLED);
    throw forbidden("This quiz is locked. Complete the previous module first.");
  }
  return { module, quiz: module.quiz, records };
}

/** The questions and options, never the answers. */
export async function getQuiz(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
): Promise<Quiz> {
  const { module, quiz, records } = await quizAccess(db, user, course, moduleId);
  const stats = records.enrolled ? records.quizStats.get(moduleId) : undefined;
  return {
    courseId: course.card.id,
    moduleId,
    moduleTitle: module.title,
    title: quiz.title,
    questions: quiz.questions.map((q) => ({
      id: q.id,
      question: q.question,
      options: q.options.map((o) => ({ id: o.id, text: o.text })),
    })),
    passMark: PASS_MARK,
    previous: stats
      ? { score: stats.score, bestScore: stats.bestScore, attempts: stats.attempts, passed: stats.passed }
      : null,
    recorded: records.enrolled,
    nextModuleId: course.modules[module.position + 1]?.id ?? null,
  };
}

/** Grades on the server. Enrolled learners' attempts are stored; a preview attempt is only graded. */
export async function gradeQuizAttempt(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
  answers: Record<string, string>,
): Promise<QuizResult> {
  const { quiz, records } = await quizAccess(db, user, course, moduleId);
  const questionIds = new Set(quiz.questions.map((q) => q.id));
  for (const id of Object.keys(answers)) if (!questionIds.has(id)) throw badRequest(`Unknown question '${id}'.`);
  for (const q of quiz.questions) {
    const answer = answers[q.id];
    if (answer === undefined) throw badRequest("Answer every question before submitting.");
    if (!q.options.some((o) => o.id === answer))
      throw badRequest(`'${answer}' is not an option of question '${q.id}'.`);
  }
  const review = quiz.questions.map((q) => ({ q, correct: answers[q.id] === q.correctAnswer }));
  const correctCount = review.filter((r) => r.correct).length;
  const total = quiz.questions.length;
  const score = scorePercent(correctCount, total);
  const passed = score >= PASS_MARK;
  let bestScore: number | null = null;
  if (user && records.enrolled) {
    const now = new Date().toISOString();
    await writeTransaction(db, async (trx) => {
      await ensureProgressRow(trx, user.id, course.card.id);
      await trx
        .insertInto("quizAttempt")
        .values({
          id: randomUUID(),
          userId: user.id,
          courseId: course.card.id,
          moduleId,
          score,
          correctCount,
          total,
          passed: passed ? 1 : 0,
          answers: JSON.stringify(answers),
          createdAt: now,
        })
        .execute();
    });
    bestScore = Math.max(score, records.quizStats.get(moduleId)?.bestScore ?? 0);
  }
  return {
    score,
    correctCount,
    incorrectCount: total - correctCount,
    total,
    passed,
    passMark: PASS_MARK,
    recorded: !!user && records.enrolled,
    bestScore,
    review: review.map(({ q, correct }) =>
      passed
        ? { questionId: q.id, correct, correctAnswer: q.correctAnswer, explanation: q.explanation }
        : { questionId: q.id, correct },
    ),
  };
}
