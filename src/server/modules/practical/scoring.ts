import { evaluatePassRule } from "#shared/practical-pass-rule.ts";
import type { ReviewInput } from "#shared/schemas/practical.ts";
import { badRequest } from "../../errors.ts";
import type { CoursePractical } from "../courses/course-catalogue.ts";

/** Scores against the rubric; throws 400 naming the first problem. */
export function scoreReview(practical: CoursePractical, input: ReviewInput) {
  const byId = new Map(input.scores.map((s) => [s.criterionId, s]));
  if (byId.size !== input.scores.length) throw badRequest("Score each criterion once.");
  for (const id of byId.keys())
    if (!practical.criteria.some((c) => c.id === id)) throw badRequest(`'${id}' is not a criterion of this rubric.`);
  const scores = practical.criteria.map((criterion) => {
    const score = byId.get(criterion.id);
    if (!score) throw badRequest(`Score the criterion "${criterion.title}".`);
    const levels = criterion.levels.map((l) => l.points);
    if (!levels.includes(score.points))
      throw badRequest(`"${criterion.title}" is scored at one of its levels: ${levels.join(", ")} points.`);
    return { criterionId: criterion.id, points: score.points, comment: score.comment.trim() };
  });
  const rule = evaluatePassRule(practical, new Map(scores.map((s) => [s.criterionId, s.points])));
  return { scores, points: rule.points, maxPoints: rule.maxPoints, meetsRule: rule.meets };
}

/** How far apart two scores of a criterion are, in levels (not points). */
export function levelDistance(practical: CoursePractical, criterionId: string, a: number, b: number): number {
  const levels = practical.criteria.find((c) => c.id === criterionId)?.levels.map((l) => l.points) ?? [];
  return Math.abs(levels.indexOf(a) - levels.indexOf(b));
}

/**
 * A borderline mark (docs/decisions/0053): one criterion one level up or down would change whether the
 * scores meet the pass rule, or the decision goes against what the rule allows.
 */
export function isBorderline(
  practical: CoursePractical,
  scores: { criterionId: string; points: number }[],
  decision: "pass" | "resubmit",
): boolean {
  const points = new Map(scores.map((s) => [s.criterionId, s.points]));
  const meets = evaluatePassRule(practical, points).meets;
  if (meets !== (decision === "pass")) return true;
  return practical.criteria.some((c) => {
    const levels = c.levels.map((l) => l.points);
    const at = levels.indexOf(points.get(c.id) ?? -1);
    return [at - 1, at + 1].some((i) => {
      const moved = levels[i];
      return moved !== undefined && evaluatePassRule(practical, new Map(points).set(c.id, moved)).meets !== meets;
    });
  });
}
