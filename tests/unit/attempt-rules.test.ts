import { describe, expect, it } from "vitest";
import { attemptAllowance } from "#server/modules/learning/attempt-rules.ts";
import { drawQuestions } from "#server/modules/learning/draw.ts";

const rules = { maxAttempts: 3, cooldownHours: 24 };
const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000);

describe("attempt rules", () => {
  it("allows three attempts, then none until 24 hours after the third", () => {
    expect(attemptAllowance([], [], rules, at(0))).toEqual({ attemptsLeft: 3, nextAttemptAt: null });
    expect(attemptAllowance([at(0), at(1)], [], rules, at(2))).toEqual({ attemptsLeft: 1, nextAttemptAt: null });
    expect(attemptAllowance([at(0), at(1), at(2)], [], rules, at(3))).toEqual({
      attemptsLeft: 0,
      nextAttemptAt: at(26),
    });
    expect(attemptAllowance([at(0), at(1), at(2)], [], rules, at(26))).toEqual({
      attemptsLeft: 3,
      nextAttemptAt: null,
    });
  });

  it("starts a new round of three after the cooldown", () => {
    const attempts = [at(0), at(1), at(2), at(30), at(31), at(32)];
    expect(attemptAllowance(attempts.slice(0, 4), [], rules, at(30.5)).attemptsLeft).toBe(2);
    expect(attemptAllowance(attempts, [], rules, at(33))).toEqual({ attemptsLeft: 0, nextAttemptAt: at(56) });
  });

  it("lets an admin's grant add one attempt, ending the cooldown, and only one", () => {
    const three = [at(0), at(1), at(2)];
    expect(attemptAllowance(three, [at(3)], rules, at(4))).toEqual({ attemptsLeft: 1, nextAttemptAt: null });
    expect(attemptAllowance([...three, at(5)], [at(3)], rules, at(6))).toEqual({
      attemptsLeft: 0,
      nextAttemptAt: at(29),
    });
  });

  it("follows a course's own rules", () => {
    expect(attemptAllowance([at(0)], [], { maxAttempts: 1, cooldownHours: 2 }, at(1))).toEqual({
      attemptsLeft: 0,
      nextAttemptAt: at(2),
    });
  });
});

describe("draws", () => {
  const bank = Array.from({ length: 12 }, (_, i) => ({
    id: `q${i + 1}`,
    question: `Question ${i + 1}`,
    options: ["a", "b", "c", "d"].map((id) => ({ id, text: id })),
    correctAnswer: "a",
    explanation: "",
  }));

  it("draws the least seen questions first, so the bank is seen before any repeats", () => {
    const seen = new Map<string, number>();
    const drawn: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const draw = drawQuestions(bank, 4, seen);
      for (const q of draw) seen.set(q.id, (seen.get(q.id) ?? 0) + 1);
      drawn.push(...draw.map((q) => q.id));
    }
    expect(new Set(drawn).size).toBe(12);
  });

  it("keeps every option, in some order", () => {
    for (const q of drawQuestions(bank, 12, new Map())) expect([...q.options].sort()).toEqual(["a", "b", "c", "d"]);
  });
});
