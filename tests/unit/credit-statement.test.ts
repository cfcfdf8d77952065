import { describe, expect, it } from "vitest";
import { courseFileSchema } from "../../src/server/content/content-files.ts";
import { creditStatement } from "../../src/shared/format.ts";

describe("what a certificate says about hours", () => {
  it("states CE hours only with the approving body and its number", () => {
    const ceApproval = { hours: 5, approvedBy: "Example Board of Coaching", approvalNumber: "AP-1234" };
    expect(creditStatement({ ceApproval, studyHours: 7, hasPractical: true })).toBe(
      "5 CE hours approved by Example Board of Coaching (AP-1234)",
    );
    expect(creditStatement({ ceApproval: { ...ceApproval, hours: 1 }, studyHours: null, hasPractical: false })).toBe(
      "1 CE hour approved by Example Board of Coaching (AP-1234)",
    );
  });

  it("otherwise gives the estimated study time, with the practical when the course has one, and says it is not approved", () => {
    expect(creditStatement({ ceApproval: null, studyHours: 5, hasPractical: true })).toBe(
      "Estimated study time: 5 hours, including the practical assessment. Not approved for continuing-education credit.",
    );
    expect(creditStatement({ ceApproval: null, studyHours: 1, hasPractical: false })).toBe(
      "Estimated study time: 1 hour. Not approved for continuing-education credit.",
    );
    expect(creditStatement({ ceApproval: null, studyHours: null, hasPractical: true })).toBeNull();
  });

  it("refuses CE hours in course.json without an approving body or number", () => {
    const base = courseFileSchema.shape;
    const ce = base.continuingEducation;
    expect(ce.safeParse({ hours: 5, approvedBy: "Example Board", approvalNumber: "AP-1" }).success).toBe(true);
    expect(ce.safeParse({ hours: 5, approvedBy: "Example Board" }).success).toBe(false);
    expect(ce.safeParse({ hours: 5, approvalNumber: "AP-1" }).success).toBe(false);
    expect(ce.safeParse({ hours: 5, approvedBy: " ", approvalNumber: "AP-1" }).success).toBe(false);
    expect(ce.safeParse(undefined).success).toBe(true);
  });
});
