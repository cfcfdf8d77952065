import { type Kysely, sql } from "kysely";
import type { VersionKind } from "#shared/schemas/studio.ts";
import { engineOf } from "../db/database.ts";
import type { DB } from "../db/schema.ts";
import { DEFAULT_CONTENT_DIR, type LoadedContent, loadContent } from "./content-files.ts";
import { readCourseDocument } from "./course-document.ts";
import {
  announceContentChange,
  CONTENT_CHANNEL,
  lockCourse,
  type PublishResult,
  publishVersion,
  saveDraft,
} from "./course-versions.ts";

export { CONTENT_CHANNEL };

type Listener = () => void;
const listeners = new Set<Listener>();

/** Caches of course data subscribe here; every import or publish tells them to drop what they hold. */
export function onContentImported(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Drops every subscribed cache in this process. */
export function contentChanged() {
  for (const listener of listeners) listener();
}

/** Grows with every import and publish; instances compare it to learn of changes made elsewhere. */
export async function latestContentVersion(db: Kysely<DB>): Promise<number | null> {
  const row = await db
    .selectFrom("contentImport")
    .select((eb) => eb.fn.max("id").as("version"))
    .executeTakeFirst();
  return row?.version ?? null;
}

export interface ImportResult {
  courses: number;
  modules: number;
  lessons: number;
  quizzes: number;
  exams: number;
  hash: string;
  /** Per course: the version published (or already there), or the draft written. */
  outcomes: { courseId: string; version?: PublishResult; draftRevision?: number }[];
}

export const IMPORT_NOTE = "Imported from the course files.";

export interface ImportOptions {
  /** "auto" (the default): each changed course is published, minor when its change allows, else major. "draft": written as each course's draft. */
  mode?: VersionKind | "auto" | "draft";
  note?: string;
}

/**
 * Publishes each course of the files as its next version (docs/decisions/0055), in one transaction: a
 * course whose files serve what its latest version serves gets no new version. Learners' rows
 * (enrolments, progress, attempts, certificates) are never touched.
 */
export async function importContent(
  db: Kysely<DB>,
  content: LoadedContent = loadContent(),
  options: ImportOptions = {},
): Promise<ImportResult> {
  return (await writeContent(db, content, false, options)) as ImportResult;
}

async function writeContent(
  db: Kysely<DB>,
  content: LoadedContent,
  onlyIfChanged: boolean,
  options: ImportOptions,
): Promise<ImportResult | null> {
  const now = new Date().toISOString();
  const mode = options.mode ?? "auto";
  const result: ImportResult = {
    courses: 0,
    modules: 0,
    lessons: 0,
    quizzes: 0,
    exams: 0,
    hash: content.hash,
    outcomes: [],
  };
  const imported = await db.transaction().execute(async (trx) => {
    // Instances starting together import one at a time (SQLite: BEGIN IMMEDIATE already; PostgreSQL:
    // a transaction lock), and the later ones find the content already there.
    if (engineOf(trx) === "postgres") {
      await sql`select pg_advisory_xact_lock(hashtext(${CONTENT_CHANNEL}))`.execute(trx);
    }
    if (onlyIfChanged && !(await needsImport(trx, content.hash))) return false;
    for (const [index, loaded] of content.courses.entries()) {
      if (!loaded.dir) throw new Error(`course ${loaded.id} was not read from a folder`);
      const { document, media } = readCourseDocument(loaded.dir);
      await lockCourse(trx, loaded.id);
      if (mode === "draft") {
        const current = await trx
          .selectFrom("courseDraft")
          .select("revision")
          .where("courseId", "=", loaded.id)
          .executeTakeFirst();
        const latest = await trx
          .selectFrom("courseVersion")
          .select((eb) => eb.fn.max("version").as("version"))
          .where("courseId", "=", loaded.id)
          .executeTakeFirst();
        const draft = await saveDraft(trx, {
          courseId: loaded.id,
          document,
          baseRevision: current?.revision ?? 0,
          by: null,
          baseVersion: latest?.version ?? null,
        });
        if (!draft.saved || !draft.current) throw new Error(`the draft of ${loaded.id} changed while it was written`);
        result.outcomes.push({ courseId: loaded.id, draftRevision: draft.current.revision });
      } else {
        const version = await publishVersion(trx, {
          courseId: loaded.id,
          document,
          loaded,
          media,
          kind: mode,
          note: options.note ?? IMPORT_NOTE,
          publishedBy: null,
          position: (index + 1) * 10,
          now,
        });
        result.outcomes.push({ courseId: loaded.id, version });
      }
      result.courses++;
      result.modules += loaded.modules.length;
      result.lessons += loaded.modules.reduce((n, m) => n + m.lessons.length, 0);
      result.quizzes += loaded.modules.filter((m) => m.quiz).length;
      if (loaded.exam) result.exams++;
    }
    await announceContentChange(trx, content.hash, now);
    return true;
  });
  if (!imported) return null;
  contentChanged();
  return result;
}

/** Marks the cache news of a publish made through the server, so a start compares the files with the last import only. */
export const STUDIO_MARK = "studio:";

/** The files differ from the last import, or a course's version still lacks its document (migration 036). */
async function needsImport(db: Kysely<DB>, hash: string): Promise<boolean> {
  const last = await db
    .selectFrom("contentImport")
    .select("contentHash")
    .where("contentHash", "not like", `${STUDIO_MARK}%`)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last?.contentHash !== hash) return true;
  const undocumented = await db
    .selectFrom("courseVersion")
    .select("courseId")
    .where("document", "is", null)
    .limit(1)
    .executeTakeFirst();
  return undocumented !== undefined;
}

/** On start: import only when the files differ from the last import. */
export async function importContentIfChanged(
  db: Kysely<DB>,
  contentDir = DEFAULT_CONTENT_DIR,
): Promise<ImportResult | null> {
  const content = loadContent(contentDir);
  if (!(await needsImport(db, content.hash))) return null;
  return writeContent(db, content, true, {});
}
