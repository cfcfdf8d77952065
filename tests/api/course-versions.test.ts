import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONTENT_DIR, loadContent } from "#server/content/content-files.ts";
import { importContent, importContentIfChanged } from "#server/content/content-import.ts";
import { readCourseDocument, servedRowsOf } from "#server/content/course-document.ts";
import { exportVersion, listVersions } from "#server/content/course-versions.ts";
import { migrateToLatest } from "#server/db/migrate.ts";
import { VERSIONED_LEARNER_TABLES } from "#server/db/migrations/036-course-versions.ts";
import { AppError } from "#server/errors.ts";
import { FIXTURE_CONTENT } from "../setup/test-app.ts";
import { createTestDatabase, type TestDatabase, testEngine } from "../setup/test-database.ts";

/** Every file under `dir`, by its path inside it. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

function copyFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), "versions-"));
  cpSync(FIXTURE_CONTENT, join(dir, "courses"), { recursive: true });
  return join(dir, "courses");
}
const editFile = (file: string, change: (text: string) => string) =>
  writeFileSync(file, change(readFileSync(file, "utf8")));

describe("the files door", () => {
  let testDb: TestDatabase;
  const out = mkdtempSync(join(tmpdir(), "export-"));
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
    rmSync(out, { recursive: true, force: true });
  });

  it("imports the shipped courses and exports each back byte for byte", async () => {
    const content = loadContent(DEFAULT_CONTENT_DIR);
    await importContent(testDb.database.db, content);
    expect(content.courses.length).toBeGreaterThanOrEqual(4);
    for (const course of content.courses) {
      expect(await exportVersion(testDb.database.db, course.id, undefined, out)).toBe(1);
      const original = filesOf(join(DEFAULT_CONTENT_DIR, course.id));
      const exported = filesOf(join(out, course.id));
      expect([...exported.keys()].sort()).toEqual([...original.keys()].sort());
      for (const [path, bytes] of original)
        expect(exported.get(path)?.equals(bytes), `${course.id}/${path}`).toBe(true);
    }
  });
});

describe("versions from the files", () => {
  let testDb: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    dir = copyFixtures();
  });
  afterAll(async () => {
    await testDb?.drop();
    rmSync(join(dir, ".."), { recursive: true, force: true });
  });
  const versionsOf = async (courseId: string) =>
    (await listVersions(testDb.database.db, courseId)).map((v) => [v.version, v.kind, v.line]);

  it("publishes version 1, nothing for unchanged files, minor for wording, major for a re-keyed question", async () => {
    const db = testDb.database.db;
    await importContent(db, loadContent(dir));
    expect(await versionsOf("fixture-basics")).toEqual([[1, "major", 1]]);
    await importContent(db, loadContent(dir));
    expect(await versionsOf("fixture-basics")).toEqual([[1, "major", 1]]);

    editFile(join(dir, "fixture-basics/modules/01-alpha/01-alpha-one.md"), (t) => `${t}\nOne more sentence.\n`);
    const minor = await importContent(db, loadContent(dir), { mode: "minor", note: "A sentence added" });
    expect(minor.outcomes.find((o) => o.courseId === "fixture-basics")?.version?.published).toBe(true);
    expect(await versionsOf("fixture-basics")).toEqual([
      [1, "major", 1],
      [2, "minor", 1],
    ]);
    expect(await versionsOf("fixture-other")).toEqual([[1, "major", 1]]);

    const quiz = join(dir, "fixture-basics/modules/01-alpha/quiz.json");
    editFile(quiz, (t) => {
      const value = JSON.parse(t);
      const [first] = value.questions;
      first.correctAnswer = first.options.find((o: { id: string }) => o.id !== first.correctAnswer).id;
      return `${JSON.stringify(value, null, 2)}\n`;
    });
    const refused = await importContent(db, loadContent(dir), { mode: "minor", note: "Re-keyed" }).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(409);
    expect(await versionsOf("fixture-basics")).toHaveLength(2);

    const major = await importContent(db, loadContent(dir), { note: "Re-keyed the first question" });
    const outcome = major.outcomes.find((o) => o.courseId === "fixture-basics")?.version;
    expect(outcome?.version).toMatchObject({ version: 3, kind: "major", line: 3 });
    expect(outcome?.changes.assessmentsChanged).toEqual(["alpha"]);
    const served = await db.selectFrom("course").select("version").where("id", "=", "fixture-basics").execute();
    expect(served).toEqual([{ version: 3 }]);

    // Version 1 is still the files as they were (the fixtures' JSON is not laid out as an export writes it).
    const out = mkdtempSync(join(tmpdir(), "export-"));
    await exportVersion(db, "fixture-basics", 1, out);
    expect(readCourseDocument(join(out, "fixture-basics"))).toEqual(
      readCourseDocument(join(FIXTURE_CONTENT, "fixture-basics")),
    );
    rmSync(out, { recursive: true, force: true });
  });

  it("writes a draft without publishing", async () => {
    const db = testDb.database.db;
    const before = await versionsOf("fixture-other");
    editFile(join(dir, "fixture-other/course.json"), (t) => t.replace('"Fixture Other"', '"Fixture Other, revised"'));
    const result = await importContent(db, loadContent(dir), { mode: "draft" });
    const again = await importContent(db, loadContent(dir), { mode: "draft" });
    expect(result.outcomes.find((o) => o.courseId === "fixture-other")?.draftRevision).toBe(1);
    expect(again.outcomes.find((o) => o.courseId === "fixture-other")?.draftRevision).toBe(2);
    expect(await versionsOf("fixture-other")).toEqual(before);
    const draft = await db
      .selectFrom("courseDraft")
      .selectAll()
      .where("courseId", "=", "fixture-other")
      .executeTakeFirst();
    expect(JSON.parse(draft?.document ?? "{}").course.title).toBe("Fixture Other, revised");
  });
});

describe(`upgrading a database of today's schema (${testEngine})`, () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase({ upTo: "030-learner-milestones" });
  });
  afterAll(async () => testDb?.drop());

  it("keeps every course, learner, attempt and certificate, each on version 1", async () => {
    const db = testDb.database.db;
    const content = loadContent(FIXTURE_CONTENT);
    const now = "2026-11-30T10:00:00.000Z";
    for (const [index, course] of content.courses.entries()) {
      const rows = servedRowsOf(course, {
        position: index * 10,
        contentHash: content.hash,
        updatedAt: now,
        version: 1,
      });
      // Columns of later migrations (036's version, 034's CE approval) are not there yet.
      const { version: _version, ceApproval: _ceApproval, ...courseRow } = rows.course;
      await db.insertInto("course").values(courseRow).execute();
      if (rows.modules.length) await db.insertInto("courseModule").values(rows.modules).execute();
      for (const lesson of rows.lessons) await db.insertInto("lesson").values(lesson).execute();
      for (const quiz of rows.quizzes) await db.insertInto("quiz").values(quiz).execute();
      if (rows.exam) await db.insertInto("courseExam").values(rows.exam).execute();
    }
    await db.insertInto("contentImport").values({ contentHash: content.hash, importedAt: now }).execute();
    const users = ["u1", "u2", "u3"];
    for (const id of users)
      await db
        .insertInto("user")
        .values({
          id,
          name: id,
          email: `${id}@example.com`,
          emailVerified: true,
          image: null,
          firstName: "Ada",
          lastName: id,
          role: "user",
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    for (const userId of users) {
      await db
        .insertInto("enrollment")
        .values({ id: `e-${userId}`, userId, courseId: "fixture-basics", source: "fixture", createdAt: now })
        .execute();
      await db
        .insertInto("lessonCompletion")
        .values({ userId, courseId: "fixture-basics", lessonId: "alpha-one", completedAt: now })
        .execute();
      await db
        .insertInto("assessmentAttempt")
        .values({
          id: `a-${userId}`,
          userId,
          courseId: "fixture-basics",
          assessmentId: "alpha",
          questions: "[]",
          startedAt: now,
          deadlineAt: null,
          submittedAt: now,
          score: 80,
          passed: true,
          ordinal: 1,
        })
        .execute();
      await db
        .insertInto("quizAttempt")
        .values({
          id: `a-${userId}`,
          userId,
          courseId: "fixture-basics",
          moduleId: "alpha",
          score: 80,
          correctCount: 4,
          total: 5,
          passed: true,
          answers: "{}",
          createdAt: now,
        })
        .execute();
      await db
        .insertInto("itemResponseTally")
        .values({
          courseId: "fixture-basics",
          assessmentId: "alpha",
          questionId: `q-${userId}`,
          optionId: "a",
          responses: 3,
          sumScore: 240,
          sumSquares: 19200,
          // Today's schema has no courseVersion column in the tally yet (migration 045 adds it).
        } as never)
        .execute();
      await db
        .insertInto("courseProgress")
        .values({
          id: `p-${userId}`,
          userId,
          courseId: "fixture-basics",
          isCompleted: true,
          completedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await db
        .insertInto("certificate")
        .values({
          id: `c-${userId}`,
          certificateId: `CERT-${userId}`,
          userId,
          courseId: "fixture-basics",
          firstName: "Ada",
          lastName: userId,
          completedAt: now,
          expiresAt: "2028-11-30T10:00:00.000Z",
          issuedAt: now,
          revokedAt: null,
          revokedReason: null,
        })
        .execute();
      await db
        .insertInto("practicalSubmission")
        .values({
          userId,
          courseId: "fixture-basics",
          attempt: 1,
          body: "My session notes",
          status: "submitted",
          submittedAt: now,
          consentedAt: now,
          claimedBy: null,
          claimedAt: null,
          reviewedBy: null,
          reviewedAt: null,
          scores: null,
          feedback: null,
          points: null,
          maxPoints: null,
        })
        .execute();
    }
    const tables = [
      "course",
      "courseModule",
      "lesson",
      "quiz",
      "courseExam",
      "enrollment",
      "courseProgress",
      "itemResponseTally",
    ] as const;
    const snapshot = async () => {
      const all: Record<string, unknown[]> = {};
      for (const table of [...tables, ...VERSIONED_LEARNER_TABLES])
        all[table] = (await db.selectFrom(table).selectAll().execute()).map((row) => {
          const {
            courseVersion: _v,
            courseLine: _l,
            version: _cv,
            ceApproval: _ce,
            // 039's red-flag confirmation and marking stage (new columns, null on every old row).
            redFlagConfirmedAt: _rf,
            markingStage: _ms,
            ...rest
          } = row as Record<string, unknown>;
          return rest;
        });
      return all;
    };
    const before = await snapshot();
    expect(before.certificate).toHaveLength(3);

    await migrateToLatest(db, testDb.schema ? { schema: testDb.schema } : {});

    expect(await snapshot()).toEqual(before);
    for (const table of VERSIONED_LEARNER_TABLES) {
      const versions = await db.selectFrom(table).select("courseVersion").execute();
      expect(versions.length, table).toBe(3);
      expect(new Set(versions.map((v) => v.courseVersion)), table).toEqual(new Set([1]));
    }
    expect(
      new Set((await db.selectFrom("enrollment").select("courseLine").execute()).map((e) => e.courseLine)),
    ).toEqual(new Set([1]));
    // The item statistics' running sums so far are version 1's.
    const tallies = await db.selectFrom("itemResponseTally").select("courseVersion").execute();
    expect(tallies.map((r) => r.courseVersion)).toEqual([1, 1, 1]);
    const versions = await db.selectFrom("courseVersion").select(["courseId", "version", "document"]).execute();
    expect(versions.map((v) => [v.courseId, v.version, v.document]).sort()).toEqual(
      content.courses.map((c) => [c.id, 1, null]).sort(),
    );

    // The next start finds the same files: version 1 gets their document, and no version 2 is made.
    await importContentIfChanged(db, FIXTURE_CONTENT);
    const after = await db.selectFrom("courseVersion").select(["courseId", "version", "document"]).execute();
    expect(after).toHaveLength(content.courses.length);
    expect(after.every((v) => v.version === 1 && v.document !== null)).toBe(true);
    expect(await importContentIfChanged(db, FIXTURE_CONTENT)).toBeNull();
  });
});
