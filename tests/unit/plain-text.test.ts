import { describe, expect, it } from "vitest";
import { findControlCharacter, firstNameSchema, hasHiddenCharacter } from "#shared/schemas/text.ts";

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

describe("names that disguise themselves", () => {
  it.each([
    ["a right-to-left override", "Alice \u202Eevil\u202C"],
    ["a left-to-right override", "\u202DBob"],
    ["an isolate", "Eve\u2067x\u2069"],
    ["a right-to-left mark", "\u200Fשרה"],
    ["the Arabic letter mark", "\u061Cعلي"],
    ["a zero-width space", "Ad\u200Ba"],
    ["a word joiner", "Ada\u2060"],
    ["a byte-order mark", "Ad\uFEFFa"],
    ["a soft hyphen", "Ad\u00ADa"],
    ["a Hangul filler", "\u3164"],
    ["a zero-width joiner at the end", "Ada\u200D"],
    ["a zero-width joiner next to a space", "Ada \u200DLee"],
  ])("refuses %s", (_label, name) => {
    expect(firstNameSchema.safeParse(name).success).toBe(false);
    expect(hasHiddenCharacter(name)).toBe(true);
  });

  it.each([
    ["invisible characters only", "\u200B\u200B"],
    ["combining marks only", "\u0301\u0301"],
    ["spaces around nothing", " \u00A0 "],
  ])("refuses a name of %s", (_label, name) => {
    expect(firstNameSchema.safeParse(name).success).toBe(false);
  });

  it.each([
    ["Hebrew", "שרה"],
    ["Arabic", "علي"],
    ["Persian with a zero-width non-joiner", "نرگس\u200Cسادات"],
    ["Hindi with a joiner", "क्\u200Dष"],
    ["an emoji with skin tone and joiner", "Ada 🧘🏽\u200D♀\uFE0F"],
    ["England's flag", "Ada 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"],
    ["a combining accent", "Jose\u0301"],
    ["Japanese", "山田"],
    ["an apostrophe and a hyphen", "O'Neil-Smith"],
  ])("keeps %s", (_label, name) => {
    expect(firstNameSchema.safeParse(name).success).toBe(true);
  });
});
