import type { Kysely } from "kysely";
import type { CeApproval } from "#shared/format.ts";
import type { PassRule } from "#shared/practical-pass-rule.ts";
import { type CourseCard, courseCardSchema, type Level } from "#shared/schemas/courses.ts";
import { onContentImported } from "../../content/content-import.ts";
import type { DB } from "../../db/schema.ts";

export interface QuizQuestion {
  id: string;
  /** The lesson the question tests. */
  lesson?: string;
  question: string;
  options: { id: string; text: string }[];
  correctAnswer: string;
  explanation: string;
}
export interface CatalogueLesson {
  id: string;
  moduleId: string;
  position: number;
  numberInModule: number;
  title: string;
  duration: string;
  html: string;
  /** The review shown on the lesson page: its own front matter's, else the course's. */
  lastReviewed?: string | null;
  reviewerRole?: string | null;
}
export interface CatalogueModule {
  id: string;
  position: number;
  title: string;
  description: string;
  lessons: CatalogueLesson[];
  quiz: QuestionBank | null;
}
/** A module quiz or a final exam: the bank, and how many questions each attempt draws. */
export interface QuestionBank {
  title: string;
  draw: number;
  questions: QuizQuestion[];
  timeLimitMinutes: number | null;
  /** The final exam's items per module, in module order (docs/decisions/0026); null for module quizzes. */
  blueprint: ExamBlueprint | null;
}
export type ExamBlueprint = { moduleId: string; count: number }[];
export interface CatalogueCourse {
  card: CourseCard;
  /** The published version these contents are (docs/decisions/0055); learners' rows record it. */
  version: number;
  /** The date and change note of the publish that made this version, when it is not the first. */
  update: { publishedAt: string; note: string } | null;
  learningOutcomes: string[];
  seo: { title: string; description: string; keywords: string[] };
  modules: CatalogueModule[];
  lessons: CatalogueLesson[];
  lessonsById: Map<string, CatalogueLesson>;
  modulesById: Map<string, CatalogueModule>;
  quizCount: number;
  exam: QuestionBank | null;
  practical: CoursePractical | null;
  /** From course.json; null means the academy's defaults. */
  assessment: { maxAttempts: number | null; cooldownHours: number | null };
  /** Hours of study the course represents (the credential's creditsEarned); null when not stated. */
  studyHours?: number | null;
  /** The continuing-education approval course.json names; null: no CE hours are claimed (decision 0052). */
  ceApproval?: CeApproval | null;
  /** When the course was last reviewed (YYYY-MM-DD), by whom (a role), and its note on protected titles. */
  lastReviewed?: string | null;
  reviewerRole?: string | null;
  titleNotice?: string | null;
}
/** A rubric criterion: levels from the lowest to the highest, each worth more points. */
export interface PracticalCriterion {
  id: string;
  title: string;
  description: string;
  /** Below Competent fails whatever the pass rule's minimum level (docs/decisions/0052). */
  critical: boolean;
  levels: { points: number; label: string; descriptor: string }[];
}
/** The course's practical skills assessment (docs/decisions/0026). */
export interface CoursePractical {
  title: string;
  briefHtml: string;
  criteria: PracticalCriterion[];
  passRule: PassRule;
  requiredForCertificate: boolean;
}
export interface Catalogue {
  courses: CatalogueCourse[];
  byId: Map<string, CatalogueCourse>;
  /** GET /api/courses, serialised once per import. */
  cardsJson: string;
}

/**
 * The course content, read from the database once and kept in memory until the next import.
 * Content changes only through imports, so reads never wait on the database.
 */
export class CourseCatalogue {
  private current: Promise<Catalogue> | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly db: Kysely<DB>) {
    this.unsubscribe = onContentImported(() => this.invalidate());
  }

  invalidate() {
    this.current = null;
  }

  dispose() {
    this.unsubscribe();
  }

  get(): Promise<Catalogue> {
    this.current ??= this.load().catch((error) => {
      this.current = null;
      throw error;
    });
    return this.current;
  }

  async course(courseId: string): Promise<CatalogueCourse | undefined> {
    return (await this.get()).byId.get(courseId);
  }

  private async load(): Promise<Catalogue> {
    const [courseRows, moduleRows, lessonRows, quizRows, examRows, practicalRows, versionRows] = await Promise.all([
      this.db.selectFrom("course").selectAll().orderBy("position").orderBy("id").execute(),
      this.db.selectFrom("courseModule").selectAll().orderBy("courseId").orderBy("position").execute(),
      this.db.selectFrom("lesson").selectAll().orderBy("courseId").orderBy("position").execute(),
      this.db.selectFrom("quiz").selectAll().execute(),
      this.db.selectFrom("courseExam").selectAll().execute(),
      this.db.selectFrom("coursePractical").selectAll().execute(),
      this.db.selectFrom("courseVersion").select(["courseId", "version", "publishedAt", "note"]).execute(),
    ]);
    const courses = courseRows.map((row): CatalogueCourse => {
      const examRow = examRows.find((e) => e.courseId === row.id);
      const practicalRow = practicalRows.find((p) => p.courseId === row.id);
      const lessonCountInModule = new Map<string, number>();
      const modules: CatalogueModule[] = moduleRows
        .filter((m) => m.courseId === row.id)
        .map((m) => {
          const quizRow = quizRows.find((q) => q.courseId === row.id && q.moduleId === m.id);
          return {
            id: m.id,
            position: m.position,
            title: m.title,
            description: m.description,
            lessons: [],
            quiz: quizRow
              ? {
                  title: quizRow.title,
                  draw: quizRow.draw,
                  questions: JSON.parse(quizRow.questions) as QuizQuestion[],
                  timeLimitMinutes: null,
                  blueprint: null,
                }
              : null,
          };
        });
      const modulesById = new Map(modules.map((m) => [m.id, m]));
      const lessons = lessonRows
        .filter((l) => l.courseId === row.id)
        .map((l): CatalogueLesson => {
          const n = (lessonCountInModule.get(l.moduleId) ?? 0) + 1;
          lessonCountInModule.set(l.moduleId, n);
          const lesson = {
            id: l.id,
            moduleId: l.moduleId,
            position: l.position,
            numberInModule: n,
            title: l.title,
            duration: l.duration,
            html: l.html,
            lastReviewed: l.lastReviewed ?? row.lastReviewed,
            reviewerRole: l.reviewerRole ?? row.reviewerRole,
          };
          modulesById.get(l.moduleId)?.lessons.push(lesson);
          return lesson;
        });
      const card = courseCardSchema.parse({
        id: row.id,
        title: row.title,
        description: row.description,
        level: row.level as Level,
        price: row.price,
        duration: row.duration,
        studyHours: row.studyHours ?? null,
        moduleCount: modules.length,
        lessonCount: lessons.length,
        gradient: row.gradient,
        comingSoon: row.comingSoon,
        marketplaceUrl: row.marketplaceUrl,
      });
      const published = versionRows.find((v) => v.courseId === row.id && v.version === row.version);
      return {
        card,
        version: row.version,
        update: published && row.version > 1 ? { publishedAt: published.publishedAt, note: published.note } : null,
        learningOutcomes: JSON.parse(row.learningOutcomes) as string[],
        seo: {
          title: row.seoTitle,
          description: row.seoDescription,
          keywords: JSON.parse(row.seoKeywords) as string[],
        },
        modules,
        lessons,
        lessonsById: new Map(lessons.map((l) => [l.id, l])),
        modulesById,
        quizCount: modules.filter((m) => m.quiz).length,
        exam: examRow
          ? {
              title: examRow.title,
              draw: examRow.draw,
              questions: JSON.parse(examRow.questions) as QuizQuestion[],
              timeLimitMinutes: examRow.timeLimitMinutes,
              blueprint: examRow.blueprint ? (JSON.parse(examRow.blueprint) as ExamBlueprint) : null,
            }
          : null,
        practical: practicalRow
          ? {
              title: practicalRow.title,
              briefHtml: practicalRow.briefHtml,
              criteria: JSON.parse(practicalRow.criteria) as PracticalCriterion[],
              passRule: JSON.parse(practicalRow.passRule) as PassRule,
              requiredForCertificate: practicalRow.requiredForCertificate,
            }
          : null,
        assessment: { maxAttempts: row.maxAttempts, cooldownHours: row.cooldownHours },
        studyHours: row.studyHours,
        ceApproval: row.ceApproval ? (JSON.parse(row.ceApproval) as CeApproval) : null,
        lastReviewed: row.lastReviewed,
        reviewerRole: row.reviewerRole,
        titleNotice: row.titleNotice,
      };
    });
    return {
      courses,
      byId: new Map(courses.map((c) => [c.card.id, c])),
      cardsJson: JSON.stringify(courses.map((c) => c.card)),
    };
  }
}
