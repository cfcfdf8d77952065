import { join } from "node:path";
import { type Kysely, sql, type Transaction } from "kysely";
import type { CourseDocument, VersionChanges, VersionKind, VersionSummary } from "#shared/schemas/studio.ts";
import { engineOf } from "../db/database.ts";
import type { DB } from "../db/schema.ts";
import { AppError, conflict } from "../errors.ts";
import { ContentError, type LoadedCourse } from "./content-files.ts";
import {
  documentHash,
  loadCourseDocument,
  type MediaBytes,
  type ServedRows,
  servedRowsOf,
  writeCourseDocument,
} from "./course-document.ts";

/**
 * Published versions and drafts of a course (docs/decisions/0055). A version is written once and never
 * changed; the content tables hold the latest version's rows, so the catalogue reads them as before.
 */

type Db = Kysely<DB> | Transaction<DB>;

/** PostgreSQL channel a content change notifies on commit, so other instances drop their caches at once. */
export const CONTENT_CHANNEL = "academy_content_imported";

/** Tells every instance (content-watch) that content changed, inside the writing transaction. */
export async function announceContentChange(trx: Db, contentHash: string, at: string) {
  await trx.insertInto("contentImport").values({ contentHash, importedAt: at }).execute();
  if (engineOf(trx) === "postgres") await sql`select pg_notify(${CONTENT_CHANNEL}, '')`.execute(trx);
}

/** One writer per course at a time on PostgreSQL (SQLite's BEGIN IMMEDIATE already serialises writes). */
export async function lockCourse(trx: Transaction<DB>, courseId: string) {
  if (engineOf(trx) === "postgres")
    await sql`select pg_advisory_xact_lock(hashtext(${`academy_course:${courseId}`}))`.execute(trx);
}

interface QuestionKey {
  id: string;
  correctAnswer: string;
  options: { id: string }[];
  lesson?: string;
}
const questionKeys = (questions: string) =>
  (JSON.parse(questions) as QuestionKey[]).map((q) => [q.id, q.correctAnswer, q.options.map((o) => o.id), q.lesson]);

/** A module's assessment identity: its lessons, its quiz's draw and every question's id, options and key. */
export function moduleKey(rows: ServedRows, moduleId: string): string {
  const quiz = rows.quizzes.find((q) => q.moduleId === moduleId);
  return JSON.stringify([
    rows.lessons.filter((l) => l.moduleId === moduleId).map((l) => l.id),
    quiz ? [quiz.draw, questionKeys(quiz.questions)] : null,
  ]);
}
export const examKey = (rows: ServedRows) =>
  rows.exam ? JSON.stringify([rows.exam.draw, rows.exam.blueprint, questionKeys(rows.exam.questions)]) : null;
export function practicalKey(rows: ServedRows) {
  const p = rows.practical;
  if (!p) return null;
  const criteria = (
    JSON.parse(p.criteria) as { id: string; critical?: boolean; levels: { points: number; label: string }[] }[]
  ).map((c) => [c.id, c.critical ?? false, c.levels.map((l) => [l.points, l.label])]);
  return JSON.stringify([criteria, p.passRule, p.requiredForCertificate, p.evidence ?? "written"]);
}

/**
 * What `after` changes against `before`, by stable id: lessons added and removed, modules whose lessons
 * or quiz (questions, options, keys, draw) changed, and whether the exam's or the practical's assessment did.
 */
export function versionChanges(before: ServedRows | null, after: ServedRows): VersionChanges {
  const beforeLessons = new Set(before?.lessons.map((l) => l.id));
  const afterLessons = new Set(after.lessons.map((l) => l.id));
  const beforeModules = new Set(before?.modules.map((m) => m.id));
  return {
    lessonsAdded: [...afterLessons].filter((id) => !beforeLessons.has(id)),
    lessonsRemoved: [...beforeLessons].filter((id) => !afterLessons.has(id)),
    assessmentsChanged: [
      ...after.modules
        .filter((m) => !before || !beforeModules.has(m.id) || moduleKey(before, m.id) !== moduleKey(after, m.id))
        .map((m) => m.id),
      ...[...beforeModules].filter((id) => !after.modules.some((m) => m.id === id)),
    ],
    examChanged: (before ? examKey(before) : null) !== examKey(after),
    practicalChanged: (before ? practicalKey(before) : null) !== practicalKey(after),
  };
}

/** A minor change adds, removes, moves or re-keys nothing a learner is assessed on or completes. */
export function isMinorChange(before: ServedRows | null, after: ServedRows, changes: VersionChanges): boolean {
  const order = (rows: ServedRows) => JSON.stringify(rows.lessons.map((l) => [l.moduleId, l.id]));
  return (
    before !== null &&
    changes.lessonsAdded.length === 0 &&
    changes.lessonsRemoved.length === 0 &&
    changes.assessmentsChanged.length === 0 &&
    !changes.examChanged &&
    !changes.practicalChanged &&
    JSON.stringify(before.modules.map((m) => m.id)) === JSON.stringify(after.modules.map((m) => m.id)) &&
    order(before) === order(after)
  );
}

/** The rows without the stamps of when and as which version they were written, keys and rows in one order. */
function servedContent(rows: ServedRows): string {
  const { contentHash: _hash, updatedAt: _at, version: _version, ...course } = rows.course;
  const sorted = (row: object | null) =>
    row && Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify({
    course: sorted(course),
    modules: [...rows.modules].sort((a, b) => a.position - b.position).map(sorted),
    lessons: [...rows.lessons].sort((a, b) => a.position - b.position).map(sorted),
    quizzes: [...rows.quizzes].sort((a, b) => a.moduleId.localeCompare(b.moduleId)).map(sorted),
    exam: sorted(rows.exam),
    practical: sorted(rows.practical),
  });
}

export interface VersionRow {
  courseId: string;
  version: number;
  line: number;
  kind: VersionKind;
  note: string;
  publishedAt: string;
  publishedBy: string | null;
}
const SUMMARY_COLUMNS = ["courseId", "version", "line", "kind", "note", "publishedAt", "publishedBy"] as const;

export const summaryOf = (row: VersionRow): VersionSummary => ({
  version: row.version,
  line: row.line,
  kind: row.kind,
  note: row.note,
  publishedAt: row.publishedAt,
  publishedBy: row.publishedBy,
});

/** Every published version of every course (or one), oldest first, without their content. */
export function listVersions(db: Db, courseId?: string): Promise<VersionRow[]> {
  let query = db.selectFrom("courseVersion").select(SUMMARY_COLUMNS);
  if (courseId !== undefined) query = query.where("courseId", "=", courseId);
  return query.orderBy("courseId").orderBy("version").execute();
}

/** One version with its content. */
export async function readVersion(db: Db, courseId: string, version: number) {
  const row = await db
    .selectFrom("courseVersion")
    .selectAll()
    .where("courseId", "=", courseId)
    .where("version", "=", version)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    document: row.document === null ? null : (JSON.parse(row.document) as CourseDocument),
    served: JSON.parse(row.served) as ServedRows,
  };
}
export type StoredVersion = NonNullable<Awaited<ReturnType<typeof readVersion>>>;

async function latestVersion(db: Db, courseId: string) {
  const row = await db
    .selectFrom("courseVersion")
    .select("version")
    .where("courseId", "=", courseId)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? readVersion(db, courseId, row.version) : undefined;
}

/** The bytes of a document's media files that the database holds. */
export async function storedMedia(db: Db, courseId: string, document: CourseDocument): Promise<MediaBytes> {
  const hashes = document.media.map((m) => m.sha256);
  const media: MediaBytes = new Map();
  if (hashes.length === 0) return media;
  const rows = await db
    .selectFrom("courseMedia")
    .select(["sha256", "bytes"])
    .where("courseId", "=", courseId)
    .where("sha256", "in", hashes)
    .execute();
  for (const row of rows) media.set(row.sha256, new Uint8Array(row.bytes));
  return media;
}

/**
 * A media file the server holds rather than a course folder (uploaded in the studio), by name and the
 * start of its SHA-256 (the `?v=` a lesson page links it with): without the hash nothing is found.
 */
export async function mediaByHash(db: Db, courseId: string, name: string, hashPrefix: string) {
  const row = await db
    .selectFrom("courseMedia")
    .select("bytes")
    .where("courseId", "=", courseId)
    .where("name", "=", name)
    .where("sha256", "like", `${hashPrefix}%`)
    .executeTakeFirst();
  return row ? Buffer.from(row.bytes) : null;
}

/** Checks a document with the import's rules: the loaded course, or a 422 listing what to fix. */
export function checkDocument(courseId: string, document: CourseDocument, media: MediaBytes): LoadedCourse {
  try {
    return loadCourseDocument(courseId, document, media);
  } catch (error) {
    if (error instanceof ContentError)
      throw new AppError(422, "The course does not pass its checks.", { problems: [error.message] });
    throw error;
  }
}

export interface PublishInput {
  courseId: string;
  document: CourseDocument;
  /** The document loaded and checked (checkDocument, or an import's loadContent). */
  loaded: LoadedCourse;
  media: MediaBytes;
  /** "auto": minor when the change allows it, else major (imports and rollbacks). */
  kind: VersionKind | "auto";
  note: string;
  publishedBy: string | null;
  /** A retried request with the same key gets the version the first one made. */
  requestKey?: string | null;
  /** The catalogue position when course.json gives none. */
  position?: number;
  now?: string;
}
export interface PublishResult {
  version: VersionRow;
  changes: VersionChanges;
  /** False when nothing was written: a retried request, or content the latest version already has. */
  published: boolean;
}

/**
 * Publishes a checked document as the course's next version inside `trx` (which the caller holds,
 * with lockCourse): writes the version, its media, the content tables' rows and the cache news.
 * Refuses a "minor" publish that changes what learners complete or are assessed on (409).
 */
export async function publishVersion(trx: Transaction<DB>, input: PublishInput): Promise<PublishResult> {
  const now = input.now ?? new Date().toISOString();
  if (input.requestKey) {
    const earlier = await trx
      .selectFrom("courseVersion")
      .select(SUMMARY_COLUMNS)
      .where("courseId", "=", input.courseId)
      .where("requestKey", "=", input.requestKey)
      .executeTakeFirst();
    if (earlier) {
      const before = await readVersion(trx, input.courseId, earlier.version - 1);
      const current = await readVersion(trx, input.courseId, earlier.version);
      return {
        version: earlier,
        changes: versionChanges(before?.served ?? null, (current as StoredVersion).served),
        published: false,
      };
    }
  }
  const latest = await latestVersion(trx, input.courseId);
  const hash = documentHash(input.document);
  const version = (latest?.version ?? 0) + 1;
  const served = servedRowsOf(input.loaded, {
    position: input.position ?? latest?.served.course.position ?? 0,
    contentHash: hash,
    updatedAt: now,
    version,
  });
  const changes = versionChanges(latest?.served ?? null, served);
  if (latest && servedContent(latest.served) === servedContent(served)) {
    // A version made before versions kept documents gets the files' document when they serve the same.
    if (latest.document === null)
      await trx
        .updateTable("courseVersion")
        .set({ document: JSON.stringify(input.document), documentHash: hash })
        .where("courseId", "=", input.courseId)
        .where("version", "=", latest.version)
        .execute();
    if (latest.document === null || latest.documentHash === hash) {
      await storeMedia(trx, input, now);
      return { version: latest, changes, published: false };
    }
  }
  const minor = isMinorChange(latest?.served ?? null, served, changes);
  if (input.kind === "minor" && !minor)
    throw conflict(
      "This change is not minor: it adds, removes, moves or re-keys lessons, questions, the exam or the rubric. Publish it as major.",
    );
  const kind: VersionKind = input.kind === "auto" ? (minor ? "minor" : "major") : input.kind;
  const row: VersionRow = {
    courseId: input.courseId,
    version,
    line: kind === "minor" && latest ? latest.line : version,
    kind,
    note: input.note,
    publishedAt: now,
    publishedBy: input.publishedBy,
  };
  await trx
    .insertInto("courseVersion")
    .values({
      ...row,
      document: JSON.stringify(input.document),
      served: JSON.stringify(served),
      documentHash: hash,
      requestKey: input.requestKey ?? null,
    })
    .execute();
  await storeMedia(trx, input, now);
  await writeServedRows(trx, served);
  if (kind === "major") await moveUnstartedEnrolments(trx, input.courseId, version);
  return { version: row, changes, published: true };
}

/**
 * After a major publish, learners who have recorded nothing on the course yet (no lesson completed,
 * no attempt, no submission) are on the new line at once: they have nothing to keep. Learners in
 * progress and learners who finished stay on their line until they move (decision 0055).
 */
async function moveUnstartedEnrolments(trx: Transaction<DB>, courseId: string, line: number) {
  const none = (table: "lessonCompletion" | "quizAttempt" | "assessmentAttempt" | "practicalSubmission") =>
    sql<boolean>`not exists (select 1 from ${sql.table(table)} r where r."userId" = enrollment."userId" and r."courseId" = enrollment."courseId")`;
  await trx
    .updateTable("enrollment")
    .set({ courseLine: line })
    .where("courseId", "=", courseId)
    .where("courseLine", "<>", line)
    .where(none("lessonCompletion"))
    .where(none("quizAttempt"))
    .where(none("assessmentAttempt"))
    .where(none("practicalSubmission"))
    .execute();
}

async function storeMedia(trx: Transaction<DB>, input: PublishInput, now: string) {
  for (const file of input.document.media) {
    const bytes = input.media.get(file.sha256);
    if (!bytes) continue;
    await trx
      .insertInto("courseMedia")
      .values({ courseId: input.courseId, name: file.name, sha256: file.sha256, bytes, createdAt: now })
      .onConflict((oc) => oc.columns(["courseId", "name", "sha256"]).doNothing())
      .execute();
  }
}

/** Replaces the course's rows in the content tables with a version's. */
export async function writeServedRows(trx: Transaction<DB>, served: ServedRows) {
  const { id, ...course } = served.course;
  await trx
    .insertInto("course")
    .values(served.course)
    .onConflict((oc) => oc.column("id").doUpdateSet(course))
    .execute();
  for (const table of ["courseModule", "lesson", "quiz", "courseExam", "coursePractical"] as const)
    await trx.deleteFrom(table).where("courseId", "=", id).execute();
  if (served.modules.length > 0) await trx.insertInto("courseModule").values(served.modules).execute();
  for (const lesson of served.lessons) await trx.insertInto("lesson").values(lesson).execute();
  for (const quiz of served.quizzes) await trx.insertInto("quiz").values(quiz).execute();
  if (served.exam) await trx.insertInto("courseExam").values(served.exam).execute();
  if (served.practical) await trx.insertInto("coursePractical").values(served.practical).execute();
}

/** The draft now continues from the version it was published as. */
export async function markDraftPublished(trx: Db, courseId: string, version: number) {
  await trx.updateTable("courseDraft").set({ baseVersion: version }).where("courseId", "=", courseId).execute();
}

/** The course's draft, if it has one. */
export async function readDraft(db: Db, courseId: string) {
  const row = await db.selectFrom("courseDraft").selectAll().where("courseId", "=", courseId).executeTakeFirst();
  return row ? { ...row, document: JSON.parse(row.document) as CourseDocument } : undefined;
}
export type StoredDraft = NonNullable<Awaited<ReturnType<typeof readDraft>>>;

/**
 * Writes the draft if `baseRevision` is its current revision (0: the course has no draft yet). A stale
 * write changes nothing: `saved` is false and `current` the draft as it is now (or none).
 */
export async function saveDraft(
  db: Db,
  input: {
    courseId: string;
    document: CourseDocument;
    baseRevision: number;
    by: string | null;
    baseVersion: number | null;
  },
): Promise<{ saved: boolean; current: StoredDraft | undefined }> {
  const now = new Date().toISOString();
  const document = JSON.stringify(input.document);
  const written =
    input.baseRevision === 0
      ? await db
          .insertInto("courseDraft")
          .values({
            courseId: input.courseId,
            document,
            revision: 1,
            baseVersion: input.baseVersion,
            updatedAt: now,
            updatedBy: input.by,
          })
          .onConflict((oc) => oc.column("courseId").doNothing())
          .executeTakeFirst()
      : await db
          .updateTable("courseDraft")
          .set({ document, revision: input.baseRevision + 1, updatedAt: now, updatedBy: input.by })
          .where("courseId", "=", input.courseId)
          .where("revision", "=", input.baseRevision)
          .executeTakeFirst();
  const changed = "numInsertedOrUpdatedRows" in written ? written.numInsertedOrUpdatedRows : written.numUpdatedRows;
  return { saved: Boolean(changed), current: await readDraft(db, input.courseId) };
}
/** Writes a published version (the latest when `version` is not given) as course files into `dir/<courseId>`. */
export async function exportVersion(db: Db, courseId: string, version: number | undefined, dir: string) {
  const number =
    version ??
    (
      await db
        .selectFrom("courseVersion")
        .select((eb) => eb.fn.max("version").as("version"))
        .where("courseId", "=", courseId)
        .executeTakeFirst()
    )?.version;
  const stored = number === undefined || number === null ? undefined : await readVersion(db, courseId, number);
  if (!stored) throw new ContentError(`${courseId}: no published version${version ? ` ${version}` : ""}`);
  if (!stored.document)
    throw new ContentError(`${courseId}: version ${stored.version} was published before versions kept their files`);
  writeCourseDocument(stored.document, await storedMedia(db, courseId, stored.document), join(dir, courseId));
  return stored.version;
}
