/**
 * Item-writing rules for question banks, so that a learner who answers without reading cannot pass
 * (decision 0034). One definition for the content tests, the server and the studio's hints.
 */

/** A question as a bank file holds it: the shape these rules read. */
export interface BankQuestion {
  id: string;
  question: string;
  options: { id: string; text: string }[];
  correctAnswer: string;
  explanation?: string;
  lesson?: string | undefined;
}

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

export const GIVEAWAY = /\b(all|none|both) of the above\b/i;
/** An option that sends the client to someone else: the answer a test-wise learner picks in a coaching course. */
export const NAMES_A_PROFESSIONAL =
  /\b(refer(ral|s|red|ring)?|doctor|physician|dietitian|clinician|professional|therapist|specialist|psychologist|pharmacist|counsel+or|health ?care (provider|team)|gp|nurse|lawyer|attorney|accountant)\b/i;
/** Absolute wording: the option a test-wise learner rules out first. */
export const SOUNDS_ABSOLUTE =
  /\b(always|never|only|all|every|none|no one|nothing|must|guarantees?|completely|entirely|any|solely|cannot|impossible)\b/i;
/** Hedged wording: the careful-sounding option a test-wise learner picks. */
export const SOUNDS_HEDGED = /\b(may|might|usually|often|generally|typically|likely|depends|in most cases|some)\b/i;

const first = (q: BankQuestion) => {
  const option = q.options[0];
  if (!option) throw new Error(`question ${q.id} has no options`);
  return option;
};
const correctText = (q: BankQuestion) => q.options.find((o) => o.id === q.correctAnswer)?.text ?? "";

export function isSingleLongestCorrect(q: BankQuestion): boolean {
  const correct = correctText(q).length;
  return q.options.every((o) => o.id === q.correctAnswer || o.text.length < correct);
}
export function isSingleShortestCorrect(q: BankQuestion): boolean {
  const correct = correctText(q).length;
  return q.options.every((o) => o.id === q.correctAnswer || o.text.length > correct);
}

export function correctLengthNearMean(q: BankQuestion): boolean {
  const mean = q.options.reduce((n, o) => n + o.text.length, 0) / q.options.length;
  return Math.abs(correctText(q).length - mean) <= LENGTH_TOLERANCE * mean;
}

const longestOf = (options: BankQuestion["options"]) =>
  options.reduce((best, o) => (o.text.length > best.text.length ? o : best));
/** The option a learner picks by always choosing the longest (first of equals). */
export const longestOption = (q: BankQuestion) => longestOf(q.options).id;
/**
 * The option a learner picks by always choosing the shortest (first of equals): the counter-cue once
 * distractors have been lengthened to defeat "the longest".
 */
export const shortestOption = (q: BankQuestion) =>
  q.options.reduce((best, o) => (o.text.length < best.text.length ? o : best)).id;
/** The option a learner picks by always choosing the one naming a professional (else the first). */
export const professionalOption = (q: BankQuestion) =>
  (q.options.find((o) => NAMES_A_PROFESSIONAL.test(o.text)) ?? first(q)).id;
/** The option a learner picks by ruling out every option with absolute wording (first of those left). */
export const nonAbsoluteOption = (q: BankQuestion) =>
  (q.options.find((o) => !SOUNDS_ABSOLUTE.test(o.text)) ?? first(q)).id;
/**
 * All the cues at once: rule out absolute options, prefer one naming a professional among the rest,
 * and take the longest of what is left.
 */
export const combinedOption = (q: BankQuestion) => {
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

export function strategyScore(questions: BankQuestion[], pick: (q: BankQuestion) => string): number {
  if (questions.length === 0) return 0;
  return questions.filter((q) => pick(q) === q.correctAnswer).length / questions.length;
}

/** Each strategy's score over a bank, against the course-wide limit. */
export function strategyScores(questions: BankQuestion[]) {
  return STRATEGIES.map(([name, pick]) => {
    const score = strategyScore(questions, pick);
    return { name, score, limit: COURSE_STRATEGY_CEILING, over: score >= COURSE_STRATEGY_CEILING };
  });
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
/** The share of the smaller option's words the two options share. */
function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  const smaller = Math.min(x.size, y.size);
  if (smaller === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / smaller;
}

export interface ItemHint {
  rule: "longest" | "shortest" | "absolute-twin" | "hub" | "hedged" | "giveaway" | "lesson-named";
  message: string;
}

const letter = (q: BankQuestion, id: string) => String.fromCharCode(65 + q.options.findIndex((o) => o.id === id));

/**
 * Plain-language hints for one question, from the rules above and the panel's cues (decision 0034):
 * each names what a learner who does not know the answer could use to find it.
 */
export function itemHints(q: BankQuestion, lessonTitle?: string): ItemHint[] {
  const hints: ItemHint[] = [];
  const key = q.options.find((o) => o.id === q.correctAnswer);
  const filled = q.options.filter((o) => o.text.trim() !== "");
  if (!key || key.text.trim() === "" || filled.length < 2) return hints;
  const others = q.options.filter((o) => o !== key && o.text.trim() !== "");
  if (isSingleLongestCorrect(q))
    hints.push({
      rule: "longest",
      message:
        "The correct answer is the longest option: a learner who always picks the longest gets it right. Lengthen a wrong option or shorten the answer.",
    });
  else if (isSingleShortestCorrect(q))
    hints.push({
      rule: "shortest",
      message:
        "The correct answer is the shortest option: a learner who always picks the shortest gets it right. Make the options a similar length.",
    });
  const twin = others.find(
    (o) => SOUNDS_ABSOLUTE.test(o.text) && !SOUNDS_ABSOLUTE.test(key.text) && overlap(o.text, key.text) >= 0.5,
  );
  if (twin)
    hints.push({
      rule: "absolute-twin",
      message: `Option ${letter(q, twin.id)} is the answer with an absolute word ("always", "never", "only"...): a learner rules it out and keeps its milder twin. Make the wrong options wrong in substance, not in wording.`,
    });
  if (others.length >= 2) {
    const keyLinks = others.map((o) => overlap(o.text, key.text));
    const pairLinks = others.flatMap((a, i) => others.slice(i + 1).map((b) => overlap(a.text, b.text)));
    if (Math.min(...keyLinks) >= 0.5 && Math.min(...keyLinks) > Math.max(...pairLinks))
      hints.push({
        rule: "hub",
        message:
          "Each wrong option is the answer with one part changed: a learner picks the option the others have in common. Write wrong options that differ from each other too.",
      });
  }
  const careful = (text: string) => SOUNDS_HEDGED.test(text) || NAMES_A_PROFESSIONAL.test(text);
  if (careful(key.text) && others.every((o) => !careful(o.text)))
    hints.push({
      rule: "hedged",
      message:
        "Only the correct answer hedges or hands the client to a professional: a careful guesser picks it. Give a wrong option the same caution.",
    });
  if ([q.question, ...q.options.map((o) => o.text)].some((t) => GIVEAWAY.test(t)))
    hints.push({
      rule: "giveaway",
      message: `"All of the above" and "none of the above" can be answered without the course: write a real option instead.`,
    });
  if (lessonTitle && !(q.explanation ?? "").toLowerCase().includes(lessonTitle.toLowerCase()))
    hints.push({
      rule: "lesson-named",
      message: `The explanation should name the lesson it tests, "${lessonTitle}", so a learner knows where to read again.`,
    });
  return hints;
}
