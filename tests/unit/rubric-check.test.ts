import { describe, expect, it } from "vitest";
import { rubricCheck } from "#client/features/studio/rubric-check.ts";
import { loadContent } from "#server/content/content-files.ts";

const practical = loadContent().courses.find((c) => c.id === "nutrition-coach")?.practical;
const meta = () => structuredClone({ passRule: practical?.passRule, criteria: practical?.criteria ?? [] });

describe("the studio's live rubric check", () => {
  it("passes a shipped rubric: the top level everywhere passes, the lowest anywhere fails", () => {
    expect(practical).toBeDefined();
    expect(rubricCheck(meta())).toEqual([]);
  });

  it("names a criterion whose lowest level still passes", () => {
    const lenient = meta();
    const first = lenient.criteria[0];
    if (!first) throw new Error("no criterion");
    first.critical = false;
    lenient.passRule = { minimumLevel: first.levels[0]?.label ?? "", minPercent: undefined } as never;
    for (const c of lenient.criteria) c.levels[0] = { ...c.levels[0], label: first.levels[0]?.label ?? "" } as never;
    expect(rubricCheck(lenient).join("\n")).toMatch(/lowest level on ".*" \(the top level elsewhere\) still passes/);
  });

  it("refuses a rule whose minimum level no criterion has", () => {
    expect(rubricCheck({ ...meta(), passRule: { minimumLevel: "Nonexistent" } })).not.toEqual([]);
  });
});
