/** Grading a submitted attempt against the questions drawn for it, and the result shown to the learner. */
import type { QuizResult } from "#shared/schemas/learning.ts";
import { badRequest, conflict } from "../../errors.ts";
import { PASS_MARK, scorePercent } from "../progress/progress-formula.ts";
import type { Assessment } from "./assessment-access.ts";
import type { DrawnQuestion } from "./draw.ts";

/** Grades the drawn questions; the pass is decided here, once, and stored with the attempt. */
export function gradeAnswers(a: Assessment, drawn: DrawnQuestion[], answers: Record<string, string>) {
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

export function toResult(
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
