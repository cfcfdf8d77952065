/**
 * The practical's pass rule (docs/decisions/0052): a submission passes when every criterion reaches the
 * rule's minimum level (its label, "Competent" in the shipped courses) and, when the rule sets one, the
 * share of the points. A criterion marked critical (scope, safety, red flags) fails below Competent
 * whatever the rule's minimum. `passRuleProblems` is the check content import and publishing run: a
 * rubric whose rule fails a submission rated Competent on every criterion, or passes one rated below
 * Competent on a critical criterion, is refused.
 */

/** The level the rule is written around: what the labels say a pass means. */
export const COMPETENT = "Competent";

export interface RuleLevel {
  points: number;
  label: string;
}
export interface RuleCriterion {
  id: string;
  title: string;
  critical: boolean;
  /** From the lowest to the highest, each worth more points than the one before. */
  levels: RuleLevel[];
}
export interface PassRule {
  /** The label of the level every criterion must reach. */
  minimumLevel: string;
  /** The share of all points a pass also needs, when the rule sets one. */
  minPercent: number | null;
}
export interface RuleRubric {
  passRule: PassRule;
  criteria: RuleCriterion[];
}

const levelIndex = (criterion: RuleCriterion, label: string) => criterion.levels.findIndex((l) => l.label === label);

/** The lowest level index at which this criterion does not fail the submission (-1: no such level). */
function floorOf(rule: PassRule, criterion: RuleCriterion): number {
  const minimum = levelIndex(criterion, rule.minimumLevel);
  if (!criterion.critical) return minimum;
  const competent = levelIndex(criterion, COMPETENT);
  return minimum < 0 || competent < 0 ? -1 : Math.max(minimum, competent);
}

export interface PassRuleResult {
  meets: boolean;
  points: number;
  maxPoints: number;
  /** The criteria scored below the level they need. */
  below: RuleCriterion[];
}

/** Whether these points per criterion (every criterion scored at one of its levels) meet the rubric's rule. */
export function evaluatePassRule(rubric: RuleRubric, pointsById: ReadonlyMap<string, number>): PassRuleResult {
  let points = 0;
  let maxPoints = 0;
  const below: RuleCriterion[] = [];
  for (const criterion of rubric.criteria) {
    const scored = pointsById.get(criterion.id) ?? Number.NaN;
    const index = criterion.levels.findIndex((l) => l.points === scored);
    const floor = floorOf(rubric.passRule, criterion);
    if (index < 0 || floor < 0 || index < floor) below.push(criterion);
    points += Number.isNaN(scored) ? 0 : scored;
    maxPoints += criterion.levels.at(-1)?.points ?? 0;
  }
  const { minPercent } = rubric.passRule;
  const enoughPoints = minPercent === null || (maxPoints > 0 && 100 * points >= minPercent * maxPoints);
  return { meets: below.length === 0 && enoughPoints, points, maxPoints, below };
}

/** The rule in words: "every criterion at least Competent (critical: ...), and at least 60% of the points". */
export function describePassRule(rubric: RuleRubric): string {
  const critical = rubric.criteria.filter((c) => c.critical).map((c) => c.title);
  const { minimumLevel, minPercent } = rubric.passRule;
  return [
    `every criterion at least ${minimumLevel}`,
    critical.length && minimumLevel !== COMPETENT
      ? `, and the critical ones (${critical.join("; ")}) at least ${COMPETENT}`
      : "",
    minPercent === null ? "" : `, and at least ${minPercent}% of the points`,
  ].join("");
}

const pointsAt = (rubric: RuleRubric, pick: (c: RuleCriterion) => RuleLevel | undefined) =>
  new Map(rubric.criteria.map((c) => [c.id, pick(c)?.points ?? Number.NaN]));

/**
 * What is wrong with a rubric's pass rule, in words an author can act on (empty when nothing is).
 * Checks the rule itself at its boundaries: a submission rated Competent on every criterion must pass,
 * and one rated one level under Competent on any critical criterion must fail even when every other
 * criterion is at its highest level.
 */
export function passRuleProblems(rubric: RuleRubric): string[] {
  const problems: string[] = [];
  for (const c of rubric.criteria) {
    if (rubric.passRule.minimumLevel !== COMPETENT && levelIndex(c, rubric.passRule.minimumLevel) < 0)
      problems.push(
        `criterion '${c.id}' has no level labelled '${rubric.passRule.minimumLevel}', the pass rule's minimum level`,
      );
    const competent = levelIndex(c, COMPETENT);
    if (competent < 0) problems.push(`criterion '${c.id}' has no level labelled '${COMPETENT}'`);
    else if (c.critical && competent === 0)
      problems.push(`critical criterion '${c.id}' has no level below '${COMPETENT}' for a submission to fail at`);
  }
  if (problems.length) return problems;
  const rule = describePassRule(rubric);
  const allCompetent = evaluatePassRule(
    rubric,
    pointsAt(rubric, (c) => c.levels[levelIndex(c, COMPETENT)]),
  );
  if (!allCompetent.meets)
    problems.push(
      `a submission rated ${COMPETENT} on every criterion (${allCompetent.points} of ${allCompetent.maxPoints} points) fails the pass rule (${rule}); a rubric must pass it`,
    );
  for (const critical of rubric.criteria.filter((c) => c.critical)) {
    const under = critical.levels[levelIndex(critical, COMPETENT) - 1];
    const result = evaluatePassRule(
      rubric,
      pointsAt(rubric, (c) => (c === critical ? under : c.levels.at(-1))),
    );
    if (result.meets)
      problems.push(
        `a submission rated ${under?.label} on the critical criterion '${critical.id}' passes the pass rule (${rule}) when every other criterion is at its highest level; below ${COMPETENT} on a critical criterion must fail`,
      );
  }
  return problems;
}
