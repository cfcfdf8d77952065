import type { LoadedCourse, QuizFile } from "#server/content/content-files.ts";
import { nth } from "../setup/must.ts";

/**
 * Item-writing rules for a course's question banks (module quizzes and the final exam), so that a
 * learner who answers without reading cannot pass. Each returns the problems it finds, in words.
 */
export const MIN_MODULE_BANK = 18;
export const MIN_EXAM_BANK = 60;
/** At most this share of a course's questions may have the correct option as the single longest. */
export const MAX_LONGEST_CORRECT = 0.3;
/** The correct option's length within ±25% of its question's mean option length, in most questions. */
export const LENGTH_TOLERANCE = 0.25;
/** Each position A-D holds the correct option in 25% ± 10 points of the course's questions. */
export const POSITION_SHARE = [0.15, 0.35] as const;
/** A test-wise strategy scores below this over a whole bank (module quiz or exam). */
export const STRATEGY_CEILING = 0.5;
/** ...and below this over all of a course's questions (issue: competence, section 2). */
export const COURSE_STRATEGY_CEILING = 0.4;

const GIVEAWAY = /\b(all|none|both) of the above\b/i;
/** An option that sends the client to someone else: the answer a test-wise learner picks in a coaching course. */
export const NAMES_A_PROFESSIONAL =
  /\b(refer(ral|s|red|ring)?|doctor|physician|dietitian|clinician|professional|therapist|specialist|psychologist|pharmacist|counsel+or|health ?care (provider|team)|gp|nurse|lawyer|attorney|accountant)\b/i;

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

type Question = QuizFile["questions"][number];
const correctText = (q: Question) => q.options.find((o) => o.id === q.correctAnswer)!.text;

export function isSingleLongestCorrect(q: Question): boolean {
  const correct = correctText(q).length;
  return q.options.every((o) => o.id === q.correctAnswer || o.text.length < correct);
}

export function correctLengthNearMean(q: Question): boolean {
  const mean = q.options.reduce((n, o) => n + o.text.length, 0) / q.options.length;
  return Math.abs(correctText(q).length - mean) <= LENGTH_TOLERANCE * mean;
}

/** The option a learner picks by always choosing the longest (first of equals). */
export const longestOption = (q: Question) =>
  q.options.reduce((best, o) => (o.text.length > best.text.length ? o : best)).id;
/**
 * The option a learner picks by always choosing the shortest (first of equals): the counter-cue once
 * distractors have been lengthened to defeat "the longest".
 */
export const shortestOption = (q: Question) =>
  q.options.reduce((best, o) => (o.text.length < best.text.length ? o : best)).id;
/** The option a learner picks by always choosing the one naming a professional (else the first). */
export const professionalOption = (q: Question) =>
  (q.options.find((o) => NAMES_A_PROFESSIONAL.test(o.text)) ?? nth(q.options, 0)).id;

/** Absolute wording: the option a test-wise learner rules out first. */
export const SOUNDS_ABSOLUTE =
  /\b(always|never|only|all|every|none|no one|nothing|must|guarantees?|completely|entirely|any|solely|cannot|impossible)\b/i;
const firstOr = (q: Question, options: Question["options"]) => (options[0] ?? nth(q.options, 0)).id;
const longestOf = (options: Question["options"]) =>
  options.reduce((best, o) => (o.text.length > best.text.length ? o : best));
/** The option a learner picks by ruling out every option with absolute wording (first of those left). */
export const nonAbsoluteOption = (q: Question) =>
  firstOr(
    q,
    q.options.filter((o) => !SOUNDS_ABSOLUTE.test(o.text)),
  );
/**
 * All the cues at once: rule out absolute options, prefer one naming a professional among the rest,
 * and take the longest of what is left.
 */
export const combinedOption = (q: Question) => {
  const mild = q.options.filter((o) => !SOUNDS_ABSOLUTE.test(o.text));
  const pool = mild.length > 0 ? mild : q.options;
  const referring = pool.filter((o) => NAMES_A_PROFESSIONAL.test(o.text));
  return longestOf(referring.length > 0 ? referring : pool).id;
};
/** Every mechanical strategy the banks are held to, by name. */
export const STRATEGIES = [
  ["the longest option", longestOption],
  ["the option naming a professional", professionalOption],
  ["never the absolute option", nonAbsoluteOption],
  ["the cues combined", combinedOption],
  ["the shortest option", shortestOption],
] as const;

export function strategyScore(questions: Question[], pick: (q: Question) => string): number {
  return questions.filter((q) => pick(q) === q.correctAnswer).length / questions.length;
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
