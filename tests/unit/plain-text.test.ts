import { describe, expect, it } from "vitest";
import { findControlCharacter } from "#shared/schemas/text.ts";

/** `{ a: { a: ... leaf } }`, built in a loop: a parsed body can be this deep if nothing stops it first. */
function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe("the control-character walk over a whole input", () => {
  it("names the path of the refused string, in objects and arrays", () => {
    expect(findControlCharacter({ a: [1, "ok", { b: "x\u0000" }] })).toEqual(["a", 2, "b"]);
    expect(findControlCharacter({ "k\u0007": 1 })).toEqual(["k\u0007"]);
    expect(findControlCharacter({ a: ["fine", { b: "\u200fשרה" }] })).toBeNull();
  });

  // Copying the path at every level made this quadratic (40,000 levels took 50 s); each level now
  // costs the same, so 200,000 levels finish well inside the test's time.
  it("walks 200,000 levels without overflowing or slowing down per level", () => {
    expect(findControlCharacter(nested(200_000, "clean"))).toBeNull();
    const path = findControlCharacter(nested(200_000, "bad\u0000"));
    expect(path).toHaveLength(200_000);
  });
});
