import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { MODULES_DIR } from "../../scripts/module-layers.ts";

/**
 * Every table the server modules write, and the one module that writes it; other modules call the
 * owner's functions, passing their transaction (docs/architecture.md, Table owners; decision 0037).
 */
const TABLE_OWNERS: Record<string, string> = {
  assessmentAttempt: "learning",
  quizAttempt: "learning",
  attemptGrant: "admin",
  learnerAccommodation: "admin",
  practicalGrant: "admin",
  pendingEnrollment: "admin",
  analyticsDay: "admin",
  activeLearnerDay: "admin",
  activeLearnerGap: "admin",
  analyticsRollup: "admin",
  learnerMilestone: "admin",
  learnerMilestoneCourse: "admin",
  auditLog: "audit",
  certificate: "certificates",
  certificateNameChange: "certificates",
  certificateReminder: "certificates",
  certificateRenewal: "certificates",
  emailOptOut: "certificates",
  coupon: "coupons",
  couponRedemption: "coupons",
  courseProgress: "progress",
  lessonCompletion: "progress",
  credentialStatus: "credentials",
  issuerKey: "credentials",
  enrollment: "enrollments",
  order: "checkout",
  webhookEvent: "checkout",
  practicalFile: "practical",
  practicalSubmission: "practical",
  practitionerListing: "practitioners",
  courseStaff: "staff",
  courseReview: "studio",
  courseMedia: "studio",
  assessorProfile: "staff",
  assessorCalibration: "practical",
  practicalMark: "practical",
  post: "questions",
  questionVote: "questions",
  questionFollow: "questions",
  postReport: "questions",
  notification: "questions",
  postingSuspension: "questions",
  questionMailOptOut: "questions",
  commonQuestion: "questions",
};

/**
 * Account erasure deletes a person's rows from every table in one transaction, and anonymises the
 * user row and the questions of theirs that others answered (decision 0056).
 */
const ERASURE_FILE = "profile/account-data.ts";
const ERASURE_ANONYMISES = new Set(["user", "post"]);

/**
 * Better Auth's user table, written where the account's own fields change: the learner's name
 * (profile) and an admin's role change (admin). Not yet behind one module.
 */
const USER_WRITERS = new Set(["profile", "admin"]);

const WRITE = /\b(insertInto|updateTable|deleteFrom)\(\s*"(\w+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each write in the modules: the file (relative to the modules folder), the operation and the table. */
function tableWrites(root = MODULES_DIR) {
  return sourceFiles(root).flatMap((path) => {
    const file = relative(root, path).replaceAll("\\", "/");
    return [...readFileSync(path, "utf8").matchAll(WRITE)].map(([, operation = "", table = ""]) => ({
      file,
      operation,
      table,
    }));
  });
}

/** The writes that break the owner table, as readable lines. */
function strayWrites(writes: ReturnType<typeof tableWrites>): string[] {
  return writes
    .filter(({ file, operation, table }) => {
      const module = file.split("/")[0];
      if (file === ERASURE_FILE && (operation === "deleteFrom" || ERASURE_ANONYMISES.has(table))) return false;
      if (table === "user") return !USER_WRITERS.has(module ?? "");
      return TABLE_OWNERS[table] !== module;
    })
    .map(({ file, operation, table }) =>
      TABLE_OWNERS[table]
        ? `${file} ${operation}("${table}"), a table owned by ${TABLE_OWNERS[table]}`
        : `${file} ${operation}("${table}"), a table with no owner`,
    );
}

describe("table owners", () => {
  it("each table is written only by its owning module", () => {
    const writes = tableWrites();
    expect(writes.length).toBeGreaterThan(20);
    expect(strayWrites(writes)).toEqual([]);
  });

  it("every owner named is a module folder", () => {
    const folders = new Set(readdirSync(MODULES_DIR));
    for (const owner of new Set(Object.values(TABLE_OWNERS))) expect(folders.has(owner), owner).toBe(true);
  });

  it("a write from another module is reported", () => {
    const stray = strayWrites([{ file: "checkout/fulfilment.ts", operation: "insertInto", table: "enrollment" }]);
    expect(stray).toEqual(['checkout/fulfilment.ts insertInto("enrollment"), a table owned by enrollments']);
  });
});
