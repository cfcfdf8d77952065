import { describe, expect, it } from "vitest";
import { progressPercent, scorePercent } from "#server/modules/progress/progress-formula.ts";
import { formatLongDate, formatPrice } from "#shared/format.ts";

describe("course progress formula", () => {
  it("weighs lessons 70% and passed quizzes 30%, rounded", () => {
    expect(progressPercent(1, 5, 0, 2)).toBe(14);
    expect(progressPercent(5, 5, 1, 2)).toBe(85);
    expect(progressPercent(5, 5, 2, 2)).toBe(100);
    expect(progressPercent(1, 3, 1, 3)).toBe(33);
  });
  it("gives 0 when both totals are 0, and lets the other total decide when one is 0", () => {
    expect(progressPercent(0, 0, 0, 0)).toBe(0);
    expect(progressPercent(1, 4, 0, 0)).toBe(25);
    expect(progressPercent(0, 0, 1, 2)).toBe(50);
  });
  it("rounds half up, and is 0 with nothing done and 100 with everything done", () => {
    // 70 * 1/4 + 30 * 1/4 = 25; 70 * 1/8 = 8.75 -> 9; 70 * 1/2 + 30 * 1/4 = 42.5 -> 43
    expect(progressPercent(1, 4, 1, 4)).toBe(25);
    expect(progressPercent(1, 8, 0, 1)).toBe(9);
    expect(progressPercent(1, 2, 1, 4)).toBe(43);
    expect(progressPercent(0, 7, 0, 3)).toBe(0);
    expect(progressPercent(7, 7, 3, 3)).toBe(100);
  });
  it("counts lessons alone as 70 at most while a quiz is unpassed", () => {
    expect(progressPercent(5, 5, 0, 2)).toBe(70);
  });
});

describe("quiz score", () => {
  it("is a whole percent", () => {
    expect(scorePercent(19, 24)).toBe(79);
    expect(scorePercent(4, 5)).toBe(80);
    expect(scorePercent(0, 0)).toBe(0);
  });
});

describe("formats", () => {
  it("shows cents as dollars with two decimals, and dates in en-US long format", () => {
    expect(formatPrice(2000)).toBe("$20.00");
    expect(formatPrice(1999)).toBe("$19.99");
    expect(formatLongDate("2025-01-31T12:00:00.000Z")).toBe("January 31, 2025");
  });
});
