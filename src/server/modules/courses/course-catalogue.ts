import type { Kysely } from "kysely";
import type { CeApproval } from "#shared/format.ts";
import type { PassRule } from "#shared/practical-pass-rule.ts";
import { type ContentReview, type CourseCard, courseCardSchema, type Level } from "#shared/schemas/courses.ts";
import type { PracticalExemplar } from "#shared/schemas/practical.ts";
import { onContentImported } from "../../content/content-import.ts";
import type { ServedRows } from "../../content/course-document.ts";
import { examKey, moduleKey, practicalKey } from "../../content/course-versions.ts";
import type { DB } from "../../db/schema.ts";

/** The final exam's attempts are stored like a module quiz's, under this id (never a module slug). */
export const FINAL_EXAM_ID = "#final-exam";
/** assessedSince's keys for the final exam and the practical (module ids are slugs, never these). */
export const FINAL_EXAM_KEY = "#final-exam";
export const PRACTICAL_KEY = "#practical";

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
  /** The line (decision 0055) this version belongs to: the version number of the major publish that began it. */
  line: number;
  /** When this version was published (null before versions). */
  publishedAt: string | null;
  /** The course's latest published version. */
  latestVersion: number;
  /** The versions published after this one (empty for the latest), oldest first: what moving would bring. */
  newer: { version: number; publishedAt: string; note: string }[];
  /** For each assessment (module id, FINAL_EXAM_KEY, PRACTICAL_KEY), the earliest version it is unchanged since. */
  assessedSince: Map<string, number>;
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
  /** The recorded review of this version (decision 0058): null until a named reviewer has reviewed it. */
  review: ContentReview | null;
  /** The course's note on protected titles. */
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
  /** 'recording': a submission carries an audio or video recording of the session (docs/decisions/0053). */
  evidence: "written" | "recording";
  /** What an assessor of this practical must hold. */
  assessorRequirements: string;
  /** What to do when a volunteer discloses a real red flag. */
  redFlagSteps: string;
  /** Calibration exemplars with their agreed scores and rationale. */
  exemplars: PracticalExemplar[];
}
export interface Catalogue {
  courses: CatalogueCourse[];
  byId: Map<string, CatalogueCourse>;
  /** GET /api/courses, serialised once per import. */
  cardsJson: string;
  /** Every course's published versions, oldest first, without their content. */
  versions: Map<string, VersionStamp[]>;
  /** Older versions built on demand (servedFor, version), until the next content change. */
  lines: Map<string, Promise<CatalogueCourse | undefined>>;
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

  /**
   * The course as the learner's line serves it (docs/decisions/0055): the latest version when `line`
   * is the latest's (or unknown), else the newest version of that line, built from its stored rows
   * once per content change.
   */
  async servedFor(course: CatalogueCourse, line: number | null | undefined): Promise<CatalogueCourse> {
    if (line === null || line === undefined || line === course.line) return course;
    const catalogue = await this.get();
    const key = `${course.card.id}:${line}`;
    let older = catalogue.lines.get(key);
    if (!older) {
      older = this.loadLine(catalogue, course, line);
      catalogue.lines.set(key, older);
    }
    return (await older) ?? course;
  }

  /** One published version of a course, built from its stored rows (certificates cite the version they were earned on). */
  async version(courseId: string, version: number): Promise<CatalogueCourse | undefined> {
    const catalogue = await this.get();
    const latest = catalogue.byId.get(courseId);
    if (latest?.version === version) return latest;
    const key = `${courseId}@${version}`;
    let found = catalogue.lines.get(key);
    if (!found) {
      found = this.loadVersion(catalogue, courseId, version);
      catalogue.lines.set(key, found);
    }
    return found;
  }

  private async loadLine(catalogue: Catalogue, course: CatalogueCourse, line: number) {
    const row = await this.db
      .selectFrom("courseVersion")
      .select("version")
      .where("courseId", "=", course.card.id)
      .where("line", "=", line)
      .orderBy("version", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? this.loadVersion(catalogue, course.card.id, row.version) : undefined;
  }

  private async loadVersion(catalogue: Catalogue, courseId: string, version: number) {
    const rows = await this.db
      .selectFrom("courseVersion")
      .select(["version", "line", "publishedAt", "note", "served"])
      .where("courseId", "=", courseId)
      .where("version", "<=", version)
      .orderBy("version")
      .execute();
    const history = rows.map((r) => ({ ...r, served: JSON.parse(r.served) as ServedRows }));
    const own = history.at(-1);
    if (!own || own.version !== version) return undefined;
    const served = own.served;
    const built = courseFromRows(
      { ...served, course: { ...served.course, version } },
      history.map(({ version, line, publishedAt, note }) => ({ courseId, version, line, publishedAt, note })),
      assessedSince(history),
    );
    built.review = (await this.reviews(courseId, version)).get(`${courseId}@${version}`) ?? null;
    // What the learner sees of newer versions is the catalogue's.
    const all = catalogue.versions.get(courseId) ?? [];
    built.newer = newerThan(all, built.version);
    built.latestVersion = all.at(-1)?.version ?? built.version;
    return built;
  }

  /** Recorded content reviews by `courseId@version`: of one version, or of every version when none is given. */
  private async reviews(courseId?: string, version?: number): Promise<Map<string, ContentReview>> {
    let query = this.db
      .selectFrom("courseReview")
      .select(["courseId", "version", "reviewerName", "credential", "reviewedOn"]);
    if (courseId !== undefined && version !== undefined)
      query = query.where("courseId", "=", courseId).where("version", "=", version);
    const rows = await query.execute();
    return new Map(
      rows.map((r) => [
        `${r.courseId}@${r.version}`,
        { reviewerName: r.reviewerName, credential: r.credential, reviewedOn: r.reviewedOn },
      ]),
    );
  }

  private async load(): Promise<Catalogue> {
    const [courseRows, moduleRows, lessonRows, quizRows, examRows, practicalRows, versionRows, reviews] =
      await Promise.all([
        this.db.selectFrom("course").selectAll().orderBy("position").orderBy("id").execute(),
        this.db.selectFrom("courseModule").selectAll().orderBy("courseId").orderBy("position").execute(),
        this.db.selectFrom("lesson").selectAll().orderBy("courseId").orderBy("position").execute(),
        this.db.selectFrom("quiz").selectAll().execute(),
        this.db.selectFrom("courseExam").selectAll().execute(),
        this.db.selectFrom("coursePractical").selectAll().execute(),
        this.db
          .selectFrom("courseVersion")
          .select(["courseId", "version", "line", "publishedAt", "note"])
          .orderBy("courseId")
          .orderBy("version")
          .execute(),
        this.reviews(),
      ]);
    // Where a course has more than one version, when each assessment last changed (what carries over).
    const versioned = [...new Set(versionRows.filter((v) => v.version > 1).map((v) => v.courseId))];
    const histories =
      versioned.length === 0
        ? []
        : await this.db
            .selectFrom("courseVersion")
            .select(["courseId", "version", "served"])
            .where("courseId", "in", versioned)
            .orderBy("courseId")
            .orderBy("version")
            .execute();
    const versions = new Map<string, VersionStamp[]>();
    for (const v of versionRows) versions.set(v.courseId, [...(versions.get(v.courseId) ?? []), v]);
    const courses = courseRows.map((row) => {
      const history = histories
        .filter((h) => h.courseId === row.id && h.version <= row.version)
        .map((h) => ({ version: h.version, served: JSON.parse(h.served) as ServedRows }));
      const course = courseFromRows(
        {
          course: row,
          modules: moduleRows.filter((m) => m.courseId === row.id),
          lessons: lessonRows.filter((l) => l.courseId === row.id),
          quizzes: quizRows.filter((q) => q.courseId === row.id),
          exam: examRows.find((e) => e.courseId === row.id) ?? null,
          practical: practicalRows.find((p) => p.courseId === row.id) ?? null,
        },
        versions.get(row.id) ?? [],
        history.length > 1 ? assessedSince(history) : new Map(),
      );
      course.review = reviews.get(`${row.id}@${row.version}`) ?? null;
      return course;
    });
    return {
      courses,
      byId: new Map(courses.map((c) => [c.card.id, c])),
      cardsJson: JSON.stringify(courses.map((c) => c.card)),
      versions,
      lines: new Map(),
    };
  }
}

interface VersionStamp {
  courseId: string;
  version: number;
  line: number;
  publishedAt: string;
  note: string;
}

/** The versions after `version`, oldest first, with their notes: what a newer version changes. */
function newerThan(versions: VersionStamp[], version: number): CatalogueCourse["newer"] {
  return versions
    .filter((v) => v.version > version)
    .map((v) => ({ version: v.version, publishedAt: v.publishedAt, note: v.note }));
}

/**
 * For each module quiz (by module id), the final exam (FINAL_EXAM_KEY) and the practical (PRACTICAL_KEY):
 * the earliest version from which its assessment is what the last version of `history` has. Attempts
 * made on an earlier version do not count on this one.
 */
export function assessedSince(history: { version: number; served: ServedRows }[]): Map<string, number> {
  const since = new Map<string, number>();
  const last = history.at(-1);
  if (!last) return since;
  const keysOf = (rows: ServedRows) =>
    new Map<string, string | null>([
      ...rows.modules.map((m): [string, string] => [m.id, moduleKey(rows, m.id)]),
      [FINAL_EXAM_KEY, examKey(rows)],
      [PRACTICAL_KEY, practicalKey(rows)],
    ]);
  const target = keysOf(last.served);
  for (const [id] of target) since.set(id, last.version);
  const open = new Set(target.keys());
  for (let i = history.length - 2; i >= 0 && open.size > 0; i--) {
    const entry = history[i];
    if (!entry) break;
    const keys = keysOf(entry.served);
    for (const id of [...open]) {
      if (keys.has(id) && keys.get(id) === target.get(id)) since.set(id, entry.version);
      else open.delete(id);
    }
  }
  return since;
}

/** A course as the catalogue serves it, from the content tables' rows (or a version's stored copy of them). */
function courseFromRows(rows: ServedRows, versions: VersionStamp[], since: Map<string, number>): CatalogueCourse {
  const row = rows.course;
  const lessonCountInModule = new Map<string, number>();
  const modules: CatalogueModule[] = [...rows.modules]
    .sort((a, b) => a.position - b.position)
    .map((m) => {
      const quizRow = rows.quizzes.find((q) => q.moduleId === m.id);
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
  const lessons = [...rows.lessons]
    .sort((a, b) => a.position - b.position)
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
    comingSoon: Boolean(row.comingSoon),
    marketplaceUrl: row.marketplaceUrl,
  });
  const published = versions.find((v) => v.version === row.version);
  const examRow = rows.exam;
  const practicalRow = rows.practical;
  return {
    card,
    version: row.version,
    line: published?.line ?? row.version,
    publishedAt: published?.publishedAt ?? null,
    latestVersion: versions.at(-1)?.version ?? row.version,
    newer: [],
    assessedSince: since,
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
          requiredForCertificate: Boolean(practicalRow.requiredForCertificate),
          // A version stored before migration 039 has none of these: a written practical, no exemplars.
          evidence: practicalRow.evidence ?? "written",
          assessorRequirements: practicalRow.assessorRequirements ?? "",
          redFlagSteps: practicalRow.redFlagSteps ?? "",
          exemplars: JSON.parse(practicalRow.exemplars ?? "[]") as PracticalExemplar[],
        }
      : null,
    assessment: { maxAttempts: row.maxAttempts, cooldownHours: row.cooldownHours },
    studyHours: row.studyHours,
    ceApproval: row.ceApproval ? (JSON.parse(row.ceApproval) as CeApproval) : null,
    review: null,
    titleNotice: row.titleNotice,
  };
}
