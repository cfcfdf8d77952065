import { describe, expect, it } from "vitest";
import { parseCsvLine } from "#server/modules/admin/admin-enrollments.service.ts";
import { applyCoupon, normaliseCode } from "#server/modules/coupons/coupons.service.ts";

describe("coupon application", () => {
  const none = { percentOff: null, amountOff: null };
  it("takes a percentage off, rounded to the cent", () => {
    expect(applyCoupon(2000, { ...none, percentOff: 25 })).toBe(1500);
    expect(applyCoupon(1999, { ...none, percentOff: 50 })).toBe(1000);
    expect(applyCoupon(2000, { ...none, percentOff: 100 })).toBe(0);
  });
  it("takes a fixed amount off, never below zero", () => {
    expect(applyCoupon(2000, { ...none, amountOff: 500 })).toBe(1500);
    expect(applyCoupon(2000, { ...none, amountOff: 2000 })).toBe(0);
    expect(applyCoupon(2000, { ...none, amountOff: 5000 })).toBe(0);
  });
  it("leaves the price alone without a coupon or with an empty one", () => {
    expect(applyCoupon(2000, null)).toBe(2000);
    expect(applyCoupon(2000, none)).toBe(2000);
  });
  it("matches codes whatever their case and surrounding spaces", () => {
    expect(normaliseCode("  spring25 ")).toBe("SPRING25");
  });
});

describe("CSV lines for bulk enrolment", () => {
  it("splits on commas and trims each cell", () => {
    expect(parseCsvLine(" a@example.com , fixture-basics ")).toEqual(["a@example.com", "fixture-basics"]);
  });
  it("keeps commas inside quotes and reads a doubled quote as one quote", () => {
    expect(parseCsvLine('"x@example.com","a, b"')).toEqual(["x@example.com", "a, b"]);
    expect(parseCsvLine('"say ""hi""",c')).toEqual(['say "hi"', "c"]);
  });
  it("gives empty cells for missing values", () => {
    expect(parseCsvLine("only@example.com")).toEqual(["only@example.com"]);
    expect(parseCsvLine(",")).toEqual(["", ""]);
    expect(parseCsvLine("")).toEqual([""]);
  });
});
