import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { CourseDocument } from "#shared/schemas/studio.ts";
import type { LessonConflict, LessonSaved } from "#shared/schemas/studio-editors.ts";
import { renderLessonBody } from "../../content/content-files.ts";
import { readDraft, saveDraft, storedMedia } from "../../content/course-versions.ts";
import { MEDIA_FOLDER, MediaError } from "../../content/lesson-media.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, notFound } from "../../errors.ts";
import { getDraft } from "./studio.service.ts";

type Db = Kysely<DB>;
type Lesson = CourseDocument["modules"][number]["lessons"][number];
type Media = CourseDocument["media"][number];

const lessonIn = (document: CourseDocument, lessonId: string) =>
  document.modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId) ?? null;

function staleLesson(revision: number, lesson: Lesson | null): AppError {
  const conflict: Omit<LessonConflict, "message"> = { revision, lesson };
  return new AppError(
    409,
    lesson
      ? "Someone else saved this course since you opened it. Compare their lesson with yours and choose."
      : "Someone else removed this lesson from the draft since you opened it.",
    conflict,
  );
}

/** The media list with `added` in it: a name added again points at its new bytes. */
function withMedia(media: Media[], added: Media[]): Media[] {
  const names = new Set(added.map((m) => m.name));
  return [...media.filter((m) => !names.has(m.name)), ...added];
}

/**
 * Saves one lesson of the draft (its front matter and body) if the draft is still at `baseRevision`,
 * else 409 with the lesson as it is now: the editor compares it with the author's base copy and
 * either saves again on the new revision (nobody touched this lesson) or shows both and lets the
 * author choose. The rest of the draft is never sent, so a save is as small as its lesson.
 */
export async function putLesson(
  db: Db,
  user: CurrentUser,
  courseId: string,
  lessonId: string,
  input: { baseRevision: number; lesson: Lesson; media: Media[] },
): Promise<LessonSaved> {
  if (input.lesson.id !== lessonId) throw new AppError(422, "The lesson's id cannot change here: use the outline.");
  const draft = await readDraft(db, courseId);
  const current = draft ?? (await getDraft(db, courseId));
  const revision = current.revision;
  if (revision !== input.baseRevision) throw staleLesson(revision, lessonIn(current.document, lessonId));
  if (!lessonIn(current.document, lessonId)) throw notFound("This course's draft has no such lesson.");
  const document: CourseDocument = {
    ...current.document,
    modules: current.document.modules.map((m) => ({
      ...m,
      lessons: m.lessons.map((l) => (l.id === lessonId ? input.lesson : l)),
    })),
    media: withMedia(current.document.media, input.media),
  };
  const { saved, current: now } = await saveDraft(db, {
    courseId,
    document,
    baseRevision: input.baseRevision,
    by: user.id,
    baseVersion: draft ? draft.baseVersion : current.baseVersion,
  });
  if (!saved || !now) throw staleLesson(now?.revision ?? 0, now ? lessonIn(now.document, lessonId) : null);
  const answer = await getDraft(db, courseId);
  return {
    revision: now.revision,
    updatedAt: now.updatedAt,
    lesson: lessonIn(now.document, lessonId) ?? input.lesson,
    problems: answer.problems,
  };
}

/**
 * Stores a media file for the course's draft where versions keep theirs (`courseMedia`, by name and
 * SHA-256), and answers the entry a lesson names it by. The same bytes under the same name are kept once.
 */
export async function uploadMedia(db: Db, courseId: string, input: { name: string; data: string }) {
  const bytes = Buffer.from(input.data, "base64");
  if (bytes.length === 0) throw new AppError(422, "The file is empty.");
  if (bytes.length > 4 * 1024 * 1024) throw new AppError(413, "A media file may be at most 4 MB.");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await db
    .insertInto("courseMedia")
    .values({ courseId, name: input.name, sha256, bytes, createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["courseId", "name", "sha256"]).doNothing())
    .execute();
  return { name: input.name, sha256 };
}

/** A media file of the course by name and hash, for the editor to show (a draft's files are not served to learners). */
export async function readMedia(db: Db, courseId: string, name: string, sha256: string) {
  const row = await db
    .selectFrom("courseMedia")
    .select("bytes")
    .where("courseId", "=", courseId)
    .where("name", "=", name)
    .where("sha256", "=", sha256)
    .executeTakeFirst();
  if (!row) throw notFound("No such media file.");
  return Buffer.from(row.bytes);
}

/**
 * One lesson of the draft as its learners' page would show it (sanitised HTML, figures linked by
 * hash), for the author's preview; nothing is stored. A figure or video block that would not publish
 * is a 422 naming it.
 */
export async function previewLesson(db: Db, courseId: string, lessonId: string) {
  const draft = await getDraft(db, courseId);
  const lesson = lessonIn(draft.document, lessonId);
  if (!lesson) throw notFound("This course's draft has no such lesson.");
  const bytes = await storedMedia(db, courseId, draft.document);
  const root = mkdtempSync(join(tmpdir(), "lesson-preview-"));
  try {
    const courseDir = join(root, courseId);
    mkdirSync(join(courseDir, MEDIA_FOLDER), { recursive: true });
    for (const file of draft.document.media) {
      const content = bytes.get(file.sha256);
      if (content) writeFileSync(join(courseDir, MEDIA_FOLDER, file.name), content);
    }
    const html = renderLessonBody(lesson.body, lesson.format, { courseId, courseDir });
    return { lessonId, title: typeof lesson.meta.title === "string" ? lesson.meta.title : lessonId, html };
  } catch (error) {
    if (error instanceof MediaError) throw new AppError(422, error.message);
    throw error;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
