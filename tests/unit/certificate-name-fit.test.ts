import { describe, expect, it } from "vitest";
import { fitLines } from "#server/modules/certificates/certificate-pdf.ts";

describe("fitting the holder's name on the certificate", () => {
  const measuring = () => {
    const counter = { chars: 0 };
    const widthAt1 = (text: string) => {
      counter.chars += text.length;
      return text.length * 0.6;
    };
    return { counter, widthAt1 };
  };

  it("measures a name a bounded number of times per character, however long it is", () => {
    for (const length of [1_000, 20_000]) {
      const { counter, widthAt1 } = measuring();
      const { lines } = fitLines(
        "Bartholomew ".repeat(length / 12 + 1).slice(0, length),
        widthAt1,
        680,
        36,
        14,
        1_000_000,
      );
      expect(lines.join("").replace(/\s/g, "").length).toBeGreaterThan(0);
      expect(counter.chars).toBeLessThanOrEqual(2 * length);
    }
  });

  it("shrinks a short name to fit and keeps it on one line", () => {
    const { widthAt1 } = measuring();
    expect(fitLines("Ada Lovelace", widthAt1, 680, 36, 14, 4)).toEqual({
      lines: ["Ada Lovelace"],
      size: 36,
      truncated: false,
    });
    const fitted = fitLines("A".repeat(60), widthAt1, 680, 36, 14, 4);
    expect(fitted.lines).toHaveLength(1);
    expect(fitted.size).toBeLessThan(36);
  });

  it("wraps a long name onto at most the given number of lines", () => {
    const { widthAt1 } = measuring();
    const fitted = fitLines("Bartholomew ".repeat(200), widthAt1, 680, 36, 14, 4);
    expect(fitted.size).toBe(14);
    expect(fitted.lines).toHaveLength(4);
    for (const line of fitted.lines) expect(line.length * 0.6 * 14).toBeLessThanOrEqual(680);
  });

  it("breaks lines at spaces, and inside a word only when it has none", () => {
    const { widthAt1 } = measuring();
    const fitted = fitLines("Ana Maria Bartholomew-Featherstonehaugh", widthAt1, 120, 20, 10, 3, 10);
    expect(fitted).toEqual({ lines: ["Ana Maria", "Bartholomew-Feathers", "tonehaugh"], size: 10, truncated: false });
  });

  it("wraps before shrinking below the wrapping size", () => {
    const { widthAt1 } = measuring();
    const fitted = fitLines("Ana Maria Lopez", widthAt1, 100, 36, 10, 3, 12);
    expect(fitted).toEqual({ lines: ["Ana Maria", "Lopez"], size: 12, truncated: false });
  });

  it("ends the last line with an ellipsis when the text needs more lines than allowed", () => {
    const { widthAt1 } = measuring();
    const fitted = fitLines("Ana Maria Lopez Garcia", widthAt1, 60, 10, 10, 2);
    expect(fitted.truncated).toBe(true);
    expect(fitted.lines).toEqual(["Ana Maria", "Lopez…"]);
    for (const line of fitted.lines) expect(line.length * 0.6 * 10).toBeLessThanOrEqual(60);
  });
});
