/**
 * Course progress: lessons weigh 70%, passed quizzes 30%, rounded.
 * Both totals 0 gives 0; when only one total is 0 the other alone decides.
 */
export function progressPercent(
  lessonsDone: number,
  lessonsTotal: number,
  quizzesPassed: number,
  quizzesTotal: number,
): number {
  if (lessonsTotal === 0 && quizzesTotal === 0) return 0;
  if (quizzesTotal === 0) return Math.round((100 * lessonsDone) / lessonsTotal);
  if (lessonsTotal === 0) return Math.round((100 * quizzesPassed) / quizzesTotal);
  return Math.round((70 * lessonsDone) / lessonsTotal + (30 * quizzesPassed) / quizzesTotal);
}

export { PASS_MARK } from "#shared/constants.ts";

/** Quiz score in whole percent. */
export function scorePercent(correct: number, total: number): number {
  return total === 0 ? 0 : Math.round((100 * correct) / total);
}
