import { randomInt } from "node:crypto";
import type { CatalogueCourse, QuizQuestion } from "../courses/course-catalogue.ts";

/** What an exam draw reads of a course: its exam bank and blueprint, and which module each lesson is in. */
export type ExamSource = Pick<CatalogueCourse, "card" | "exam"> & {
  lessonsById: Map<string, { moduleId: string }>;
};

/** One drawn question: its id and its option ids in the order the learner sees them. */
export interface DrawnQuestion {
  id: string;
  options: string[];
}

function shuffle<T extends {}>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    const [last, picked] = [out[i], out[j]];
    if (last === undefined || picked === undefined)
      throw new RangeError(`Cannot swap items ${i} and ${j} of ${out.length}.`);
    [out[i], out[j]] = [picked, last];
  }
  return out;
}

/** The `count` least-seen questions of a pool, ties broken at random. */
function leastSeen(pool: QuizQuestion[], count: number, timesSeen: Map<string, number>): QuizQuestion[] {
  return shuffle(pool)
    .sort((a, b) => (timesSeen.get(a.id) ?? 0) - (timesSeen.get(b.id) ?? 0))
    .slice(0, count);
}

const withShuffledOptions = (questions: QuizQuestion[]): DrawnQuestion[] =>
  shuffle(questions).map((q) => ({ id: q.id, options: shuffle(q.options.map((o) => o.id)) }));

/**
 * Draws `count` questions, the least seen first (so every question of the bank is seen before any
 * repeats), in a random order and with their options shuffled.
 */
export function drawQuestions(bank: QuizQuestion[], count: number, timesSeen: Map<string, number>): DrawnQuestion[] {
  return withShuffledOptions(leastSeen(bank, count, timesSeen));
}

/**
 * Draws a final exam (or a recertification exam) by the course's blueprint: exactly the blueprint's
 * number of items from each module, the least seen first within each module, then in a random order
 * with options shuffled. `timesSeen` counts how often this learner has seen each question.
 * An exam without a blueprint (imported before blueprints existed) draws from the whole bank.
 */
export function drawExamByBlueprint(course: ExamSource, timesSeen: Map<string, number>): DrawnQuestion[] {
  const exam = course.exam;
  if (!exam) throw new Error(`${course.card.id} has no final exam`);
  if (!exam.blueprint) return drawQuestions(exam.questions, exam.draw, timesSeen);
  const moduleOf = (q: QuizQuestion) => (q.lesson ? course.lessonsById.get(q.lesson)?.moduleId : undefined);
  const picked = exam.blueprint.flatMap(({ moduleId, count }) =>
    leastSeen(
      exam.questions.filter((q) => moduleOf(q) === moduleId),
      count,
      timesSeen,
    ),
  );
  return withShuffledOptions(picked);
}
