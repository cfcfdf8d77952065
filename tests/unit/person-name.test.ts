import { describe, expect, it } from "vitest";
import { formatPersonName } from "#shared/format.ts";

describe("a person's name in their chosen order", () => {
  it.each([
    ["Taro", "Yamada", "given-first", "Taro Yamada"],
    ["太郎", "山田", "given-first", "太郎 山田"],
    ["太郎", "山田", "family-first", "山田太郎"],
    ["小明", "欧阳", "family-first", "欧阳小明"],
    ["민준", "김", "family-first", "김민준"],
    ["さくら", "佐々木", "family-first", "佐々木さくら"],
    ["ケンジ", "ターナー", "family-first", "ターナーケンジ"],
    ["László", "Nagy", "family-first", "Nagy László"],
    ["Taro", "山田", "family-first", "山田 Taro"],
    ["太郎", "Yamada", "family-first", "Yamada 太郎"],
  ] as const)("%s + %s, %s: %s", (given, family, order, expected) => {
    expect(formatPersonName(given, family, order)).toBe(expected);
  });
});
