import { type Kysely, sql } from "kysely";
import { engineOf } from "../db/database.ts";
import type { DB } from "../db/schema.ts";
import { DEFAULT_CONTENT_DIR, DEFAULT_DRAW, type LoadedContent, loadContent, ruleRubricOf } from "./content-files.ts";

type Listener = () => void;
const listeners = new Set<Listener>();

/** Caches of course data subscribe here; every import tells them to drop what they hold. */
export function onContentImported(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Drops every subscribed cache in this process. */
export function contentChanged() {
  for (const listener of listeners) listener();
}

/** PostgreSQL channel an import notifies on commit, so other instances drop their caches at once. */
export const CONTENT_CHANNEL = "academy_content_imported";

/** Grows with every import; instances compare it to learn of imports made elsewhere. */
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
}

/**
 * Writes the content into the database in one transaction. Content rows are replaced;
 * learners' rows (enrolments, progress, attempts, certificates) reference ids only and are never touched.
 */
export async function importContent(db: Kysely<DB>, content: LoadedContent = loadContent()): Promise<ImportResult> {
  return (await writeContent(db, content, false)) as ImportResult;
}

async function writeContent(
  db: Kysely<DB>,
  content: LoadedContent,
  onlyIfChanged: boolean,
): Promise<ImportResult | null> {
  const now = new Date().toISOString();
  const result: ImportResult = { courses: 0, modules: 0, lessons: 0, quizzes: 0, exams: 0, hash: content.hash };
  const imported = await db.transaction().execute(async (trx) => {
    // Instances starting together import one at a time (SQLite: BEGIN IMMEDIATE already; PostgreSQL:
    // a transaction lock), and the later ones find the content already there.
    if (engineOf(trx) === "postgres") {
      await sql`select pg_advisory_xact_lock(hashtext(${CONTENT_CHANNEL}))`.execute(trx);
    }
    if (onlyIfChanged && (await lastImportedHash(trx)) === content.hash) return false;
    for (const [index, { id, course, modules, exam, practical }] of content.courses.entries()) {
      const row = {
        position: course.position ?? (index + 1) * 10,
        title: course.title,
        description: course.description,
        level: course.level,
        price: course.price,
        duration: course.duration,
        gradient: course.gradient,
        comingSoon: course.comingSoon,
        learningOutcomes: JSON.stringify(course.learningOutcomes),
        seoTitle: course.seo.title,
        seoDescription: course.seo.description,
        seoKeywords: JSON.stringify(course.seo.keywords),
        marketplaceUrl: course.marketplaceUrl ?? null,
        maxAttempts: course.assessment?.maxAttempts ?? null,
        cooldownHours: course.assessment?.cooldownHours ?? null,
        studyHours: course.studyHours ?? null,
        lastReviewed: course.lastReviewed ?? null,
        reviewerRole: course.reviewerRole ?? null,
        titleNotice: course.titleNotice ?? null,
        contentHash: content.hash,
        updatedAt: now,
      };
      await trx
        .insertInto("course")
        .values({ id, ...row })
        .onConflict((oc) => oc.column("id").doUpdateSet(row))
        .execute();
      await trx.deleteFrom("courseModule").where("courseId", "=", id).execute();
      let position = 0;
      for (const [moduleIndex, mod] of modules.entries()) {
        await trx
          .insertInto("courseModule")
          .values({ courseId: id, id: mod.id, position: moduleIndex, title: mod.title, description: mod.description })
          .execute();
        for (const lesson of mod.lessons) {
          await trx
            .insertInto("lesson")
            .values({
              courseId: id,
              id: lesson.id,
              moduleId: mod.id,
              position: position++,
              title: lesson.title,
              duration: lesson.duration,
              html: lesson.html,
              lastReviewed: lesson.lastReviewed,
              reviewerRole: lesson.reviewerRole,
            })
            .execute();
          result.lessons++;
        }
        if (mod.quiz) {
          await trx
            .insertInto("quiz")
            .values({
              courseId: id,
              moduleId: mod.id,
              title: mod.quiz.title,
              draw: mod.quiz.draw ?? DEFAULT_DRAW,
              questions: JSON.stringify(mod.quiz.questions),
            })
            .execute();
          result.quizzes++;
        }
        result.modules++;
      }
      await trx.deleteFrom("courseExam").where("courseId", "=", id).execute();
      if (exam) {
        await trx
          .insertInto("courseExam")
          .values({
            courseId: id,
            title: exam.title,
            draw: exam.draw ?? DEFAULT_DRAW,
            timeLimitMinutes: exam.timeLimitMinutes ?? null,
            questions: JSON.stringify(exam.questions),
            blueprint: JSON.stringify(modules.map((m) => ({ moduleId: m.id, count: exam.blueprint[m.id] }))),
          })
          .execute();
        result.exams++;
      }
      await trx.deleteFrom("coursePractical").where("courseId", "=", id).execute();
      if (practical) {
        const rule = ruleRubricOf(practical);
        await trx
          .insertInto("coursePractical")
          .values({
            courseId: id,
            title: practical.title,
            briefHtml: practical.briefHtml,
            criteria: JSON.stringify(rule.criteria),
            passRule: JSON.stringify(rule.passRule),
            requiredForCertificate: practical.requiredForCertificate,
          })
          .execute();
      }
      result.courses++;
    }
    await trx.insertInto("contentImport").values({ contentHash: content.hash, importedAt: now }).execute();
    if (engineOf(trx) === "postgres") await sql`select pg_notify(${CONTENT_CHANNEL}, '')`.execute(trx);
    return true;
  });
  if (!imported) return null;
  contentChanged();
  return result;
}

async function lastImportedHash(db: Kysely<DB>): Promise<string | undefined> {
  const last = await db
    .selectFrom("contentImport")
    .select("contentHash")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return last?.contentHash;
}

/** On start: import only when the files differ from the last import. */
export async function importContentIfChanged(
  db: Kysely<DB>,
  contentDir = DEFAULT_CONTENT_DIR,
): Promise<ImportResult | null> {
  const content = loadContent(contentDir);
  if ((await lastImportedHash(db)) === content.hash) return null;
  return writeContent(db, content, true);
}
