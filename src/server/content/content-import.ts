import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { DEFAULT_CONTENT_DIR, DEFAULT_DRAW, type LoadedContent, loadContent } from "./content-files.ts";

type Listener = () => void;
const listeners = new Set<Listener>();

/** Caches of course data subscribe here; every import tells them to drop what they hold. */
export function onContentImported(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
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
  const now = new Date().toISOString();
  const result: ImportResult = { courses: 0, modules: 0, lessons: 0, quizzes: 0, exams: 0, hash: content.hash };
  await db.transaction().execute(async (trx) => {
    for (const [index, { id, course, modules, exam }] of content.courses.entries()) {
      const row = {
        position: course.position ?? (index + 1) * 10,
        title: course.title,
        description: course.description,
        level: course.level,
        price: course.price,
        duration: course.duration,
        gradient: course.gradient,
        comingSoon: course.comingSoon ? 1 : 0,
        learningOutcomes: JSON.stringify(course.learningOutcomes),
        seoTitle: course.seo.title,
        seoDescription: course.seo.description,
        seoKeywords: JSON.stringify(course.seo.keywords),
        marketplaceUrl: course.marketplaceUrl ?? null,
        maxAttempts: course.assessment?.maxAttempts ?? null,
        cooldownHours: course.assessment?.cooldownHours ?? null,
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
          })
          .execute();
        result.exams++;
      }
      result.courses++;
    }
    await trx.insertInto("contentImport").values({ contentHash: content.hash, importedAt: now }).execute();
  });
  for (const listener of listeners) listener();
  return result;
}

/** On start: import only when the files differ from the last import. */
export async function importContentIfChanged(
  db: Kysely<DB>,
  contentDir = DEFAULT_CONTENT_DIR,
): Promise<ImportResult | null> {
  const content = loadContent(contentDir);
  const last = await db
    .selectFrom("contentImport")
    .select("contentHash")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (last?.contentHash === content.hash) return null;
  return importContent(db, content);
}
