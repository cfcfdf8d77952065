import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type {
  CourseDocument,
  CourseFile,
  Draft,
  OutlineModule,
  RecordReview,
  VersionKind,
} from "#shared/schemas/studio.ts";
import { ContentError } from "../../content/content-files.ts";
import { contentChanged, STUDIO_MARK } from "../../content/content-import.ts";
import { documentHash, loadCourseDocument } from "../../content/course-document.ts";
import {
  announceContentChange,
  checkDocument,
  listVersions,
  lockCourse,
  markDraftPublished,
  type PublishResult,
  publishVersion,
  readDraft,
  readVersion,
  type StoredDraft,
  saveDraft,
  storedMedia,
  summaryOf,
} from "../../content/course-versions.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, conflict, forbidden, notFound } from "../../errors.ts";
import { recordAudit } from "../audit/audit.ts";
import { coursesStaffedBy, isCourseStaff } from "../staff/course-staff.ts";

/**
 * The studio's API (docs/decisions/0055): drafts written through the server by admins and by the
 * instructors assigned to a course, published as versions after every check.
 */

type Db = Kysely<DB>;

/** The course's staff in the instructor role (admins are staff of every course), else 403. */
export async function requireCourseAuthor(db: Db, user: CurrentUser, courseId: string) {
  if (!(await isCourseStaff(db, user, courseId, "instructor")))
    throw forbidden("Only admins and the instructors assigned to this course may edit it.");
}

const NO_COURSE = "This course has no draft and no published version.";

/** The checks a document fails now, each naming its file and field; empty when it would publish. */
async function problemsOf(db: Db, courseId: string, document: CourseDocument): Promise<string[]> {
  try {
    loadCourseDocument(courseId, document, await storedMedia(db, courseId, document));
    return [];
  } catch (error) {
    if (error instanceof ContentError) return [error.message];
    throw error;
  }
}

async function latestNumber(db: Db, courseId: string): Promise<number | null> {
  const row = await db
    .selectFrom("courseVersion")
    .select((eb) => eb.fn.max("version").as("version"))
    .where("courseId", "=", courseId)
    .executeTakeFirst();
  return row?.version ?? null;
}

async function draftOf(db: Db, draft: StoredDraft): Promise<Draft> {
  return {
    courseId: draft.courseId,
    revision: draft.revision,
    baseVersion: draft.baseVersion,
    updatedAt: draft.updatedAt,
    document: draft.document,
    problems: await problemsOf(db, draft.courseId, draft.document),
  };
}

/** The courses the caller may edit, with their draft revision and latest published version. */
export async function listStudioCourses(db: Db, user: CurrentUser) {
  const assigned = user.role === "admin" ? null : await coursesStaffedBy(db, user.id, "instructor");
  if (assigned?.length === 0) return [];
  const [versions, drafts, titles] = await Promise.all([
    db
      .selectFrom("courseVersion")
      .select(["courseId", (eb) => eb.fn.max("version").as("version"), (eb) => eb.fn.max("publishedAt").as("at")])
      .groupBy("courseId")
      .execute(),
    db.selectFrom("courseDraft").select(["courseId", "revision", "updatedAt", "document"]).execute(),
    db.selectFrom("course").select(["id", "title"]).execute(),
  ]);
  const ids = new Set([...versions.map((v) => v.courseId), ...drafts.map((d) => d.courseId)]);
  return [...ids]
    .filter((id) => assigned === null || assigned.includes(id))
    .sort()
    .map((id) => {
      const version = versions.find((v) => v.courseId === id);
      const draft = drafts.find((d) => d.courseId === id);
      const draftTitle = draft ? (JSON.parse(draft.document) as CourseDocument).course.title : undefined;
      const at = [draft?.updatedAt, version?.at ?? undefined].filter((x): x is string => !!x).sort();
      return {
        id,
        title: typeof draftTitle === "string" ? draftTitle : (titles.find((t) => t.id === id)?.title ?? id),
        draftRevision: draft?.revision ?? null,
        publishedVersion: version?.version ?? null,
        updatedAt: at.at(-1) ?? null,
      };
    });
}

/** Whether a course, a published version or a draft already has this id. */
export async function slugTaken(db: Db, slug: string) {
  const [course, version, draft] = await Promise.all([
    db.selectFrom("course").select("id").where("id", "=", slug).executeTakeFirst(),
    db.selectFrom("courseVersion").select("courseId").where("courseId", "=", slug).executeTakeFirst(),
    db.selectFrom("courseDraft").select("courseId").where("courseId", "=", slug).executeTakeFirst(),
  ]);
  return course !== undefined || version !== undefined || draft !== undefined;
}

/** Every account in the instructor role, by e-mail (an admin assigns them to courses). */
export async function listInstructors(db: Db) {
  return db
    .selectFrom("user")
    .select(["id", "email", "firstName", "lastName"])
    .where("role", "=", "instructor")
    .orderBy("email")
    .execute();
}

/** A new course: a draft with the least a course file needs, for the author to fill in. */
export async function createStudioCourse(db: Db, user: CurrentUser, input: { slug: string; title: string }) {
  const document: CourseDocument = {
    course: {
      title: input.title,
      description: `${input.title}: a new course.`,
      level: "Beginner",
      price: 0,
      duration: "4 weeks",
      gradient: "from-sky-500 to-blue-700",
      comingSoon: true,
      learningOutcomes: [`What ${input.title} teaches.`],
      seo: { title: input.title, description: `${input.title}: a new course.`, keywords: [input.slug] },
    },
    modules: [],
    exam: null,
    practical: null,
    media: [],
  };
  return db.transaction().execute(async (trx) => {
    await lockCourse(trx, input.slug);
    if (await slugTaken(trx, input.slug)) throw conflict(`A course '${input.slug}' already exists.`);
    const { saved, current } = await saveDraft(trx, {
      courseId: input.slug,
      document,
      baseRevision: 0,
      by: user.id,
      baseVersion: null,
    });
    if (!saved || !current) throw conflict(`A course '${input.slug}' already exists.`);
    await recordAudit(trx, user, "course.create", input.slug, { title: input.title });
    return draftOf(trx, current);
  });
}

/** The draft, or (revision 0) the latest version's document to start one from. */
export async function getDraft(db: Db, courseId: string): Promise<Draft> {
  const draft = await readDraft(db, courseId);
  if (draft) return draftOf(db, draft);
  const latest = await latestNumber(db, courseId);
  const version = latest === null ? undefined : await readVersion(db, courseId, latest);
  if (!version) throw notFound(NO_COURSE);
  if (!version.document)
    throw conflict(
      `Version ${version.version} was published before versions kept their files: import the course files once.`,
    );
  const problems = await problemsOf(db, courseId, version.document);
  return { courseId, revision: 0, baseVersion: version.version, updatedAt: null, document: version.document, problems };
}

async function staleDraft(db: Db, current: StoredDraft | undefined) {
  return new AppError(
    409,
    "The draft changed since you opened it: someone else saved it. Review their changes and save again.",
    current ? { current: await draftOf(db, current) } : {},
  );
}

/** Saves the whole draft document if `baseRevision` is still the draft's revision; 409 with the draft as it is now if not. */
export async function putDraft(
  db: Db,
  user: CurrentUser,
  courseId: string,
  input: { baseRevision: number; document: CourseDocument },
): Promise<Draft> {
  const baseVersion = await latestNumber(db, courseId);
  if (baseVersion === null && input.baseRevision === 0) throw notFound(NO_COURSE);
  const { saved, current } = await saveDraft(db, { courseId, ...input, by: user.id, baseVersion });
  if (!saved || !current) throw await staleDraft(db, current);
  return draftOf(db, current);
}

/**
 * Applies a change to the draft at `baseRevision` (to the latest version's document when the course
 * has no draft yet) and saves it, guarded like a whole-document write: 409 with the draft as it is now
 * when it moved on. The finer routes (settings, outline) send only their part through this.
 */
export async function changeDraft(
  db: Db,
  user: CurrentUser,
  courseId: string,
  baseRevision: number,
  change: (document: CourseDocument) => CourseDocument,
): Promise<Draft> {
  const draft = await readDraft(db, courseId);
  if (draft ? draft.revision !== baseRevision : baseRevision !== 0) throw await staleDraft(db, draft);
  const base = draft ? draft.document : (await getDraft(db, courseId)).document;
  return putDraft(db, user, courseId, { baseRevision, document: change(structuredClone(base)) });
}

/** The settings (course.json) replaced; everything else of the draft kept. */
export function withSettings(course: CourseFile) {
  return (document: CourseDocument): CourseDocument => ({ ...document, course });
}

const NEW_LESSON_DURATION = "10 min";

/**
 * The draft's modules and lessons rebuilt from an outline: each lesson keeps its text, front matter
 * and format wherever it moved (renamed by the outline's title), each module its description and quiz;
 * new ids start empty; ids left out are removed.
 */
export function withOutline(outline: OutlineModule[]) {
  return (document: CourseDocument): CourseDocument => {
    const lessons = new Map(document.modules.flatMap((m) => m.lessons.map((l) => [l.id, l] as const)));
    const modules = new Map(document.modules.map((m) => [m.id, m] as const));
    return {
      ...document,
      modules: outline.map((m) => {
        const before = modules.get(m.id);
        return {
          id: m.id,
          module: { ...(before?.module ?? { description: "" }), title: m.title },
          quiz: before?.quiz ?? null,
          lessons: m.lessons.map((l) => {
            const lesson = lessons.get(l.id);
            return lesson
              ? { ...lesson, meta: { ...lesson.meta, title: l.title } }
              : { id: l.id, format: "md" as const, meta: { title: l.title, duration: NEW_LESSON_DURATION }, body: "" };
          }),
        };
      }),
    };
  };
}

/**
 * Publishes the draft at `baseRevision` as the next version, after every check (422 listing them).
 * A retried request (same revision) gets the version the first one made; across instances the
 * course's lock makes the second wait and find it.
 */
export async function publishDraft(
  db: Db,
  user: CurrentUser,
  courseId: string,
  input: { kind: VersionKind; note: string; baseRevision: number },
) {
  const result = await db.transaction().execute(async (trx) => {
    await lockCourse(trx, courseId);
    const draft = await readDraft(trx, courseId);
    if (!draft) throw notFound("This course has no draft to publish.");
    if (draft.revision !== input.baseRevision) throw await staleDraft(trx, draft);
    const requestKey = `draft:${draft.revision}`;
    const media = await storedMedia(trx, courseId, draft.document);
    const loaded = checkDocument(courseId, draft.document, media);
    const published = await publishFrom(trx, user, courseId, {
      document: draft.document,
      loaded,
      media,
      kind: input.kind,
      note: input.note,
      requestKey,
      action: "course.publish",
    });
    await markDraftPublished(trx, courseId, published.version.version);
    return published;
  });
  if (result.published) contentChanged();
  return { ...summaryOf(result.version), changes: result.changes };
}

type Trx = Transaction<DB>;

async function publishFrom(
  trx: Trx,
  user: CurrentUser,
  courseId: string,
  input: {
    document: CourseDocument;
    loaded: ReturnType<typeof checkDocument>;
    media: Awaited<ReturnType<typeof storedMedia>>;
    kind: VersionKind | "auto";
    note: string;
    requestKey: string | null;
    action: string;
  },
): Promise<PublishResult> {
  const result = await publishVersion(trx, {
    courseId,
    document: input.document,
    loaded: input.loaded,
    media: input.media,
    kind: input.kind,
    note: input.note,
    publishedBy: user.id,
    requestKey: input.requestKey,
  });
  if (!result.published && input.requestKey && !(await sameRequest(trx, courseId, input.requestKey)))
    throw conflict(`The draft is the same as version ${result.version.version}: there is nothing to publish.`);
  if (result.published) {
    await recordAudit(trx, user, input.action, courseId, {
      version: result.version.version,
      kind: result.version.kind,
      note: input.note,
    });
    await announceContentChange(trx, `${STUDIO_MARK}${documentHash(input.document)}`, result.version.publishedAt);
  }
  return result;
}

async function sameRequest(trx: Trx, courseId: string, requestKey: string) {
  const row = await trx
    .selectFrom("courseVersion")
    .select("version")
    .where("courseId", "=", courseId)
    .where("requestKey", "=", requestKey)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every published version, oldest first. */
export async function listCourseVersions(db: Db, courseId: string) {
  const rows = await listVersions(db, courseId);
  if (rows.length === 0 && !(await readDraft(db, courseId))) throw notFound(NO_COURSE);
  const ids = [...new Set(rows.map((r) => r.publishedBy).filter((id): id is string => id !== null))];
  const people =
    ids.length === 0
      ? []
      : await db.selectFrom("user").select(["id", "email", "firstName", "lastName"]).where("id", "in", ids).execute();
  return rows.map((row) => {
    const who = people.find((p) => p.id === row.publishedBy);
    return { ...summaryOf(row), author: who ? `${who.firstName} ${who.lastName} (${who.email})` : null };
  });
}

export async function getCourseVersion(db: Db, courseId: string, version: number) {
  const row = await readVersion(db, courseId, version);
  if (!row) throw notFound(`Version ${version} of this course does not exist.`);
  return { ...summaryOf(row), document: row.document };
}

/** Publishes an earlier version's content again as a new version (history is never rewritten). */
export async function republishVersion(
  db: Db,
  user: CurrentUser,
  courseId: string,
  version: number,
  note: string | undefined,
) {
  const result = await db.transaction().execute(async (trx) => {
    await lockCourse(trx, courseId);
    const earlier = await readVersion(trx, courseId, version);
    if (!earlier) throw notFound(`Version ${version} of this course does not exist.`);
    if (!earlier.document)
      throw conflict(`Version ${version} was published before versions kept their files and cannot be republished.`);
    const media = await storedMedia(trx, courseId, earlier.document);
    const loaded = checkDocument(courseId, earlier.document, media);
    const published = await publishFrom(trx, user, courseId, {
      document: earlier.document,
      loaded,
      media,
      kind: "auto",
      note: note ?? `Version ${version} published again.`,
      requestKey: null,
      action: "course.republish",
    });
    return published;
  });
  if (result.published) contentChanged();
  return { ...summaryOf(result.version), changes: result.changes };
}

/**
 * Records who reviewed a published version and when (decision 0058). The review covers that version's
 * content, so its day may not be before the version was published (UTC) nor after today; recording it
 * again replaces it. Every instance's catalogue reloads, and the pages of that version show it.
 */
export async function recordReview(
  db: Db,
  user: CurrentUser,
  courseId: string,
  version: number,
  input: RecordReview,
  now = new Date(),
) {
  const review = await db.transaction().execute(async (trx) => {
    await lockCourse(trx, courseId);
    const row = await trx
      .selectFrom("courseVersion")
      .select("publishedAt")
      .where("courseId", "=", courseId)
      .where("version", "=", version)
      .executeTakeFirst();
    if (!row) throw notFound(`Version ${version} of this course does not exist.`);
    const published = new Date(row.publishedAt).toISOString().slice(0, 10);
    if (input.reviewedOn < published)
      throw new AppError(
        422,
        `The review date ${input.reviewedOn} is before version ${version} was published (${published}): a review covers only content that existed when it was made.`,
      );
    const today = now.toISOString().slice(0, 10);
    if (input.reviewedOn > today) throw new AppError(422, `The review date ${input.reviewedOn} is in the future.`);
    const values = { courseId, version, ...input, recordedBy: user.id, recordedAt: now.toISOString() };
    await trx
      .insertInto("courseReview")
      .values(values)
      .onConflict((oc) =>
        oc.columns(["courseId", "version"]).doUpdateSet({
          reviewerName: input.reviewerName,
          credential: input.credential,
          reviewedOn: input.reviewedOn,
          recordedBy: user.id,
          recordedAt: values.recordedAt,
        }),
      )
      .execute();
    await recordAudit(trx, user, "course.review", courseId, { version, ...input });
    await announceContentChange(
      trx,
      `${STUDIO_MARK}review:${courseId}@${version}:${values.recordedAt}`,
      values.recordedAt,
    );
    return { courseId, version, ...input };
  });
  contentChanged();
  return review;
}
