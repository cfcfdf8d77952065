import type { Kysely } from "kysely";
import { columnTypes } from "./types.ts";

/** The learners' rows that record the course version they were made on. */
export const VERSIONED_LEARNER_TABLES = [
  "lessonCompletion",
  "quizAttempt",
  "assessmentAttempt",
  "practicalSubmission",
  "certificate",
] as const;

/**
 * Courses as published versions (docs/decisions/0055):
 * - `courseVersion`: one immutable row per published version of a course (1, 2, 3...): the whole-course
 *   document (the course files' content, `document`), the rows it serves (`served`, the content tables'
 *   rows of that version), its line (the version number of the major publish it belongs to), note and author.
 * - `courseDraft`: at most one working draft per course, with the revision every write names.
 * - `courseMedia`: the media files (figures, videos, captions) versions refer to by name and hash.
 * - learners' rows record the version they were made on; an enrolment the line the learner moved to.
 * A course already in the database becomes version 1 of what it serves now (its document is filled in
 * by the next import of the files, when they still say the same).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("courseVersion")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("line", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("document", "text")
    .addColumn("served", "text", (c) => c.notNull())
    .addColumn("documentHash", "text", (c) => c.notNull())
    .addColumn("publishedAt", t.timestamp, (c) => c.notNull())
    .addColumn("publishedBy", "text")
    .addColumn("requestKey", "text")
    .addPrimaryKeyConstraint("courseVersion_pk", ["courseId", "version"])
    .execute();
  await db.schema
    .createIndex("courseVersion_request_idx")
    .on("courseVersion")
    .columns(["courseId", "requestKey"])
    .unique()
    .execute();
  await db.schema
    .createTable("courseDraft")
    .addColumn("courseId", "text", (c) => c.primaryKey())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("baseVersion", "integer")
    .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
    .addColumn("updatedBy", "text")
    .execute();
  await db.schema
    .createTable("courseMedia")
    .addColumn("courseId", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("bytes", t.blob, (c) => c.notNull())
    .addColumn("createdAt", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("courseMedia_pk", ["courseId", "name", "sha256"])
    .execute();
  for (const table of VERSIONED_LEARNER_TABLES)
    await db.schema
      .alterTable(table)
      .addColumn("courseVersion", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
  await db.schema
    .alterTable("enrollment")
    .addColumn("courseLine", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("course")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();

  // What each course serves today becomes its version 1.
  const courses = await db.selectFrom("course").selectAll().execute();
  const now = new Date().toISOString();
  for (const course of courses) {
    const served = {
      course,
      modules: await db
        .selectFrom("courseModule")
        .selectAll()
        .where("courseId", "=", course.id)
        .orderBy("position")
        .execute(),
      lessons: await db
        .selectFrom("lesson")
        .selectAll()
        .where("courseId", "=", course.id)
        .orderBy("position")
        .execute(),
      quizzes: await db.selectFrom("quiz").selectAll().where("courseId", "=", course.id).orderBy("moduleId").execute(),
      exam:
        (await db.selectFrom("courseExam").selectAll().where("courseId", "=", course.id).executeTakeFirst()) ?? null,
      practical:
        (await db.selectFrom("coursePractical").selectAll().where("courseId", "=", course.id).executeTakeFirst()) ??
        null,
    };
    await db
      .insertInto("courseVersion")
      .values({
        courseId: course.id,
        version: 1,
        line: 1,
        kind: "major",
        note: "The course as it was before versions.",
        document: null,
        served: JSON.stringify(served),
        documentHash: course.contentHash,
        publishedAt: course.updatedAt instanceof Date ? course.updatedAt.toISOString() : (course.updatedAt ?? now),
        publishedBy: null,
        requestKey: null,
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["courseMedia", "courseDraft", "courseVersion"]) await db.schema.dropTable(table).execute();
  for (const table of VERSIONED_LEARNER_TABLES) await db.schema.alterTable(table).dropColumn("courseVersion").execute();
  await db.schema.alterTable("enrollment").dropColumn("courseLine").execute();
  await db.schema.alterTable("course").dropColumn("version").execute();
}
