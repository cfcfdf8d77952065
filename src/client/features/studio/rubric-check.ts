import { evaluatePassRule, passRuleProblems, type RuleRubric } from "#shared/practical-pass-rule.ts";

export interface Level {
  points: number;
  label: string;
  descriptor: string;
}
export interface Criterion {
  id: string;
  title: string;
  description: string;
  critical?: boolean;
  levels: Level[];
}
/** practical.md's front matter as the studio edits it. */
export type Meta = Record<string, unknown> & {
  title?: string;
  requiredForCertificate?: boolean;
  passRule?: { minimumLevel: string; minPercent?: number };
  criteria?: Criterion[];
};

/**
 * The live check of the rubric by the server's rule code (shared/practical-pass-rule.ts): a learner
 * scored at the top level everywhere passes, and one scored at the lowest level on any criterion
 * (the top elsewhere) does not, besides every problem publishing would refuse.
 */
export function rubricCheck(meta: Meta): string[] {
  const criteria = meta.criteria ?? [];
  if (criteria.length === 0) return ["Add at least one criterion."];
  const rubric: RuleRubric = {
    passRule: {
      minimumLevel: meta.passRule?.minimumLevel ?? "Competent",
      minPercent: meta.passRule?.minPercent ?? null,
    },
    criteria: criteria.map((c) => ({ ...c, critical: c.critical ?? false })),
  };
  const problems = passRuleProblems(rubric);
  const at = (pick: (c: Criterion) => Level | undefined) =>
    new Map(criteria.map((c) => [c.id, pick(c)?.points ?? Number.NaN] as const));
  if (
    !evaluatePassRule(
      rubric,
      at((c) => c.levels.at(-1)),
    ).meets
  )
    problems.push("A learner scored at the top level on every criterion does not pass: loosen the pass rule.");
  for (const low of criteria) {
    const result = evaluatePassRule(
      rubric,
      at((c) => (c === low ? c.levels[0] : c.levels.at(-1))),
    );
    if (result.meets)
      problems.push(
        `A learner scored at the lowest level on "${low.title || low.id}" (the top level elsewhere) still passes: raise the minimum level or mark it critical.`,
      );
  }
  return problems;
}
