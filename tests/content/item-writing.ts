import type { LoadedCourse, QuizFile } from "#server/content/content-files.ts";
import {
  correctLengthNearMean,
  GIVEAWAY,
  isSingleLongestCorrect,
  longestOption,
  MAX_LONGEST_CORRECT,
  MIN_EXAM_BANK,
  MIN_MODULE_BANK,
  POSITION_SHARE,
  professionalOption,
  STRATEGY_CEILING,
  strategyScore,
} from "#shared/item-writing.ts";

export {
  COURSE_STRATEGY_CEILING,
  MIN_EXAM_BANK,
  MIN_MODULE_BANK,
  STRATEGIES,
  STRATEGY_CEILING,
  strategyScore,
} from "#shared/item-writing.ts";

/** The course's banks (module quizzes and the final exam), held to the rules of #shared/item-writing.ts. */
export interface Bank {
  name: string;
  quiz: QuizFile;
  /** Lesson ids the bank may point at, with their titles. */
  lessons: Map<string, string>;
  minSize: number;
}

export function banksOf(course: LoadedCourse): Bank[] {
  const allLessons = new Map(course.modules.flatMap((m) => m.lessons.map((l) => [l.id, l.title] as const)));
  return [
    ...course.modules
      .filter((m) => m.quiz)
      .map((m) => ({
        name: `${m.id}/quiz.json`,
        quiz: m.quiz!,
        lessons: new Map(m.lessons.map((l) => [l.id, l.title])),
        minSize: MIN_MODULE_BANK,
      })),
    ...(course.exam ? [{ name: "exam.json", quiz: course.exam, lessons: allLessons, minSize: MIN_EXAM_BANK }] : []),
  ];
}

const pct = (x: number) => `${Math.round(100 * x)}%`;

export function bankProblems(course: LoadedCourse): string[] {
  const problems: string[] = [];
  const banks = banksOf(course);
  const all = banks.flatMap((b) => b.quiz.questions);
  for (const bank of banks) {
    if (bank.quiz.questions.length < bank.minSize)
      problems.push(`${bank.name}: ${bank.quiz.questions.length} questions, fewer than ${bank.minSize}`);
    for (const q of bank.quiz.questions) {
      const where = `${bank.name} ${q.id}`;
      if (!q.lesson || !bank.lessons.has(q.lesson)) {
        problems.push(
          `${where}: 'lesson' is missing or not a lesson of this ${bank.minSize === MIN_EXAM_BANK ? "course" : "module"}`,
        );
      } else if (!q.explanation.toLowerCase().includes(bank.lessons.get(q.lesson)!.toLowerCase())) {
        problems.push(`${where}: the explanation does not name its lesson "${bank.lessons.get(q.lesson)}"`);
      }
      const texts = [q.question, ...q.options.map((o) => o.text)];
      if (texts.some((t) => GIVEAWAY.test(t))) problems.push(`${where}: "all/none of the above"`);
    }
    for (const [strategy, pick] of [
      ["the longest option", longestOption],
      ["the option naming a professional", professionalOption],
    ] as const) {
      const score = strategyScore(bank.quiz.questions, pick);
      if (score >= STRATEGY_CEILING)
        problems.push(`${bank.name}: always picking ${strategy} scores ${pct(score)} over the bank`);
    }
  }
  if (all.length === 0) return problems;
  const longest = all.filter(isSingleLongestCorrect).length / all.length;
  if (longest > MAX_LONGEST_CORRECT)
    problems.push(`the correct option is the single longest in ${pct(longest)} of the questions (at most 30%)`);
  const near = all.filter(correctLengthNearMean).length / all.length;
  if (near <= 0.5)
    problems.push(`the correct option is within ±25% of the mean option length in only ${pct(near)} of the questions`);
  for (const [i, letter] of ["A", "B", "C", "D"].entries()) {
    const share = all.filter((q) => q.options.findIndex((o) => o.id === q.correctAnswer) === i).length / all.length;
    if (share < POSITION_SHARE[0] || share > POSITION_SHARE[1])
      problems.push(`the correct option is in position ${letter} in ${pct(share)} of the questions (15% to 35%)`);
  }
  return problems;
}
