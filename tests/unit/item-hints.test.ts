import { describe, expect, it } from "vitest";
import { type BankQuestion, itemHints, strategyScores } from "#shared/item-writing.ts";

const question = (options: string[], key = "a", explanation = ""): BankQuestion => ({
  id: "q1",
  question: "What should a coach do first when a client asks for a meal plan?",
  options: options.map((text, i) => ({ id: String.fromCharCode(97 + i), text })),
  correctAnswer: key,
  explanation,
});
const rules = (q: BankQuestion, lesson?: string) => itemHints(q, lesson).map((h) => h.rule);

describe("the item-writing hints", () => {
  it("say nothing of a balanced item", () => {
    const q = question(
      ["Ask what the client wants to change", "Write a seven-day plan for the client", "Send a list of recipes"],
      "a",
      'See the lesson "Scope of practice".',
    );
    expect(itemHints(q, "Scope of practice")).toEqual([]);
  });

  it("flag a key that is the single longest or the single shortest, and clear when the lengths even out", () => {
    expect(
      rules(question(["Ask what the client hopes to change this month", "Write a plan", "Send recipes"])),
    ).toContain("longest");
    expect(rules(question(["Ask", "Write a plan for the week", "Send them some recipes"]))).toContain("shortest");
    expect(
      rules(question(["Ask what they hope to change", "Write a plan for the whole week", "Send a recipe list"])),
    ).toEqual([]);
  });

  it("flag an absolute twin, the key as the hub, the only hedged option and 'all of the above'", () => {
    expect(
      rules(
        question(["Explain that breakfast helps focus", "Explain that breakfast always fixes focus", "Skip it"], "a"),
      ),
    ).toContain("absolute-twin");
    expect(
      rules(
        question(
          [
            "Eat vegetables, fruit and beans daily",
            "Eat vegetables, fruit and meat daily",
            "Eat vegetables, sweets and beans daily",
          ],
          "a",
        ),
      ),
    ).toContain("hub");
    expect(rules(question(["It usually helps most people", "It cures the condition", "It harms the liver"]))).toContain(
      "hedged",
    );
    expect(rules(question(["All of the above", "Write a plan", "Send recipes"]))).toContain("giveaway");
  });

  it("ask the explanation to name the lesson it tests", () => {
    const q = question(["Ask what they hope", "Write a plan now", "Send recipes"], "a", "Because it is right.");
    expect(rules(q, "Scope of practice")).toContain("lesson-named");
  });

  it("score each mechanical strategy against its 40% limit", () => {
    const longestWins = [1, 2, 3].map(() => question(["The long correct option here", "Short", "Tiny"]));
    const scores = strategyScores(longestWins);
    expect(scores.find((s) => s.name === "the longest option")).toMatchObject({ score: 1, limit: 0.4, over: true });
    expect(scores.find((s) => s.name === "the shortest option")).toMatchObject({ score: 0, over: false });
  });
});
