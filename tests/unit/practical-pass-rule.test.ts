import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentError, loadContent } from "../../src/server/content/content-files.ts";
import {
  describePassRule,
  evaluatePassRule,
  type PassRule,
  passRuleProblems,
  type RuleRubric,
} from "../../src/shared/practical-pass-rule.ts";
import { PRACTICAL_FIXTURE_CONTENT } from "../setup/test-app.ts";

/** The shipped courses' shape: five criteria at 0-3 (Not shown, Developing, Competent, Strong). */
const LEVELS = ["Not shown", "Developing", "Competent", "Strong"].map((label, points) => ({ label, points }));
const IDS = ["listening", "intake", "goal", "scope", "reflection"] as const;
function rubric(passRule: Partial<PassRule> = {}, critical: string[] = ["scope"]): RuleRubric {
  return {
    passRule: { minimumLevel: "Competent", minPercent: null, ...passRule },
    criteria: IDS.map((id) => ({ id, title: id, critical: critical.includes(id), levels: LEVELS })),
  };
}
/** Points in IDS order: listening, intake, goal, scope, reflection. */
const scored = (...points: number[]) => new Map(IDS.map((id, i) => [id, points[i] ?? Number.NaN]));
const passes = (r: RuleRubric, ...points: number[]) => evaluatePassRule(r, scored(...points)).meets;

describe("the practical's pass rule", () => {
  it("passes Competent on every criterion (10 of 15 points, which the old 70% rule failed)", () => {
    const result = evaluatePassRule(rubric(), scored(2, 2, 2, 2, 2));
    expect(result).toMatchObject({ meets: true, points: 10, maxPoints: 15, below: [] });
  });

  it("fails one point under Competent on any criterion, however strong the rest", () => {
    for (let i = 0; i < IDS.length; i++) {
      const points = [3, 3, 3, 3, 3];
      points[i] = 1;
      const result = evaluatePassRule(rubric(), scored(...points));
      expect(result.meets, IDS[i]).toBe(false);
      expect(result.below.map((c) => c.id)).toEqual([IDS[i]]);
    }
    // The example: Developing on scope of practice with the rest strong (11 of 15).
    expect(passes(rubric(), 3, 3, 2, 1, 2)).toBe(false);
  });

  it("fails a critical criterion below Competent even when the rule lets the others pass at Developing", () => {
    const lenient = rubric({ minimumLevel: "Developing" });
    expect(passes(lenient, 1, 1, 1, 2, 1)).toBe(true); // critical at Competent, the rest at Developing
    expect(passes(lenient, 3, 3, 3, 1, 3)).toBe(false); // critical one level under
    expect(passes(lenient, 0, 3, 3, 2, 3)).toBe(false); // a non-critical one under the rule's minimum
  });

  it("needs the share of the points when the rule sets one: passes at the line, fails one point under", () => {
    const withShare = rubric({ minimumLevel: "Developing", minPercent: 60 });
    expect(passes(withShare, 2, 2, 1, 2, 2)).toBe(true); // 9 of 15 = 60%, exactly at the line
    expect(passes(withShare, 2, 2, 1, 2, 1)).toBe(false); // 8 of 15, one point under
  });

  it("says the rule in words", () => {
    expect(describePassRule(rubric())).toBe("every criterion at least Competent");
    expect(describePassRule(rubric({ minimumLevel: "Developing", minPercent: 60 }))).toBe(
      "every criterion at least Developing, and the critical ones (scope) at least Competent, and at least 60% of the points",
    );
  });
});

describe("refusing a rubric that contradicts its own labels", () => {
  it("accepts the shipped rule, with and without critical criteria", () => {
    expect(passRuleProblems(rubric())).toEqual([]);
    expect(passRuleProblems(rubric({}, []))).toEqual([]);
    expect(passRuleProblems(rubric({ minimumLevel: "Developing", minPercent: 66 }))).toEqual([]);
  });

  it("refuses a share of the points that all-Competent misses, and accepts it at the line", () => {
    // All-Competent is 10 of 15 = 66.67%: 66% passes it, 67% (and the old 70%) fails it.
    expect(passRuleProblems(rubric({ minPercent: 66 }))).toEqual([]);
    expect(passRuleProblems(rubric({ minPercent: 67 }))).toEqual([
      "a submission rated Competent on every criterion (10 of 15 points) fails the pass rule (every criterion at least Competent, and at least 67% of the points); a rubric must pass it",
    ]);
    expect(passRuleProblems(rubric({ minPercent: 70 }))).toHaveLength(1);
  });

  it("refuses a minimum level above Competent", () => {
    expect(passRuleProblems(rubric({ minimumLevel: "Strong" }))[0]).toMatch(
      /rated Competent on every criterion .* fails the pass rule/,
    );
  });

  it("refuses criteria the rule cannot be read on: no Competent level, no level under it on a critical one", () => {
    const noCompetent = rubric();
    noCompetent.criteria[0] = { ...noCompetent.criteria[0]!, levels: LEVELS.filter((l) => l.label !== "Competent") };
    expect(passRuleProblems(noCompetent)).toEqual(["criterion 'listening' has no level labelled 'Competent'"]);
    const noFloor = rubric();
    noFloor.criteria[3] = { ...noFloor.criteria[3]!, levels: LEVELS.slice(2) };
    expect(passRuleProblems(noFloor)).toEqual([
      "critical criterion 'scope' has no level below 'Competent' for a submission to fail at",
    ]);
    expect(passRuleProblems(rubric({ minimumLevel: "Proficient" }))[0]).toBe(
      "criterion 'listening' has no level labelled 'Proficient', the pass rule's minimum level",
    );
  });
});

describe("the content import", () => {
  function loadWith(change: (practical: string) => string) {
    const dir = mkdtempSync(join(tmpdir(), "pass-rule-"));
    try {
      cpSync(PRACTICAL_FIXTURE_CONTENT, dir, { recursive: true });
      const file = join(dir, "fixture-practical", "practical.md");
      writeFileSync(file, change(readFileSync(file, "utf8")));
      return loadContent(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("imports the fixture's rule, with its critical criterion", () => {
    const practical = loadWith((s) => s).courses[0]?.practical;
    expect(practical?.passRule).toEqual({ minimumLevel: "Competent" });
    expect(practical?.criteria.map((c) => [c.id, c.critical ?? false])).toEqual([
      ["listening", false],
      ["scope", true],
    ]);
  });

  const STRONG_LISTENING =
    "        descriptor: Frequent, accurate reflections.\n      - points: 6\n        label: Strong\n        descriptor: Complex reflections that draw out change talk.\n";

  it("refuses a rule under which all-Competent fails, naming the file and the reason; accepts it at the line", () => {
    const withShare = (percent: number) => (s: string) =>
      s
        .replace("        descriptor: Frequent, accurate reflections.\n", STRONG_LISTENING)
        .replace("  minimumLevel: Competent\n", `  minimumLevel: Competent\n  minPercent: ${percent}\n`);
    // All-Competent is 10 of 12 points = 83.3%.
    expect(loadWith(withShare(83)).courses[0]?.practical?.passRule).toEqual({
      minimumLevel: "Competent",
      minPercent: 83,
    });
    const load = () => loadWith(withShare(84));
    expect(load).toThrow(ContentError);
    expect(load).toThrow(
      /practical\.md: passRule: refused: a submission rated Competent on every criterion \(10 of 12 points\) fails the pass rule/,
    );
  });

  it("refuses a critical criterion with nothing below Competent", () => {
    const load = () =>
      loadWith((s) =>
        s.replace(
          /label: Not shown\n {8}descriptor: Gives medical advice\.\n {6}- points: 3\n {8}label: Developing\n {8}descriptor: Mostly in scope\.\n {6}- points: 6\n {8}label: Competent/,
          "label: Competent\n        descriptor: Mostly in scope.\n      - points: 6\n        label: Strong",
        ),
      );
    expect(load).toThrow(/passRule: refused: critical criterion 'scope' has no level below 'Competent'/);
  });
});
