import { createHash, type Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Marked } from "marked";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { blueprintProblems } from "#shared/exam-blueprint.ts";
import { evaluatePassRule, passRuleProblems, type RuleRubric } from "#shared/practical-pass-rule.ts";
import { firstIssue } from "#shared/schemas/common.ts";
import { courseFileSchema, moduleFileSchema } from "#shared/schemas/course-file.ts";
import { messageOf } from "../errors.ts";
import {
  MEDIA_FILE,
  MEDIA_FOLDER,
  type MediaContext,
  MediaError,
  mediaProblems,
  renderFigure,
  renderVideo,
} from "./lesson-media.ts";
import { sanitizeLessonHtml } from "./sanitize.ts";

export const DEFAULT_CONTENT_DIR = resolve("content/courses");

const nonEmpty = z.string().trim().min(1);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-20");

// The course.json and module.json schemas are shared with the studio's forms.
export { courseFileSchema, moduleFileSchema };

export const lessonFrontMatterSchema = z.strictObject({
  title: nonEmpty.max(200),
  duration: z.string().regex(/^\d+ min$/, "must look like '12 min'"),
  lastReviewed: isoDate.optional(),
  reviewerRole: nonEmpty.max(200).optional(),
});

/** Questions per attempt when a quiz file does not say. */
export const DEFAULT_DRAW = 6;
/** A question has 2 to 6 options, lettered in order. */
const OPTION_IDS = ["a", "b", "c", "d", "e", "f"] as const;

const bankFields = {
  title: nonEmpty.max(200),
  draw: z.number().int().min(1).max(100).optional(),
  timeLimitMinutes: z.number().int().min(1).max(600).optional(),
  questions: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9-]+$/, "must be a slug"),
        lesson: z
          .string()
          .regex(/^[a-z0-9-]+$/, "must be a lesson id")
          .optional(),
        question: nonEmpty,
        options: z
          .array(z.strictObject({ id: z.enum(OPTION_IDS), text: nonEmpty }))
          .min(2)
          .max(6),
        correctAnswer: nonEmpty,
        explanation: nonEmpty,
      }),
    )
    .min(1),
};

function checkBank(
  quiz: { draw?: number; questions: { id: string; options: { id: string }[]; correctAnswer: string }[] },
  ctx: z.RefinementCtx,
) {
  const draw = quiz.draw ?? DEFAULT_DRAW;
  if (quiz.questions.length < 3 * draw)
    ctx.addIssue({
      code: "custom",
      path: ["questions"],
      message: `the bank holds ${quiz.questions.length} questions; drawing ${draw} per attempt needs at least ${3 * draw}`,
    });
  const ids = new Set<string>();
  quiz.questions.forEach((q, i) => {
    if (ids.has(q.id))
      ctx.addIssue({ code: "custom", path: ["questions", i, "id"], message: `duplicate question id '${q.id}'` });
    ids.add(q.id);
    const optionIds: string[] = q.options.map((o) => o.id);
    if (new Set(optionIds).size !== optionIds.length)
      ctx.addIssue({ code: "custom", path: ["questions", i, "options"], message: "duplicate option ids" });
    if (!optionIds.includes(q.correctAnswer))
      ctx.addIssue({
        code: "custom",
        path: ["questions", i, "correctAnswer"],
        message: `'${q.correctAnswer}' is not one of the options`,
      });
  });
}

export const quizFileSchema = z.strictObject(bankFields).superRefine(checkBank);

/**
 * The final exam: a bank plus its blueprint, the items every draw takes from each module
 * (`{ "module-id": 4, ... }`, every module of the course, summing to `draw`; docs/decisions/0026).
 */
export const examFileSchema = z
  .strictObject({
    ...bankFields,
    blueprint: z.record(z.string().regex(/^[a-z0-9-]+$/, "must be a module id"), z.number().int().min(1).max(100)),
  })
  .superRefine(checkBank);

export type QuizFile = z.infer<typeof quizFileSchema>;

/**
 * `practical.md`'s front matter: the rubric and pass rule of the course's practical skills assessment;
 * the Markdown body is the brief (docs/decisions/0026).
 */
export const practicalFileSchema = z
  .strictObject({
    title: nonEmpty.max(200),
    requiredForCertificate: z.boolean(),
    /**
     * 'recording': the criteria score a live conversation, so a submission must carry an audio or
     * video recording of it (docs/decisions/0053); 'written' (the default): written work only.
     */
    evidence: z.enum(["written", "recording"]).optional(),
    /** What an assessor of this practical must hold, in words the admin and the assessor read. */
    assessorRequirements: nonEmpty.max(1000),
    /** What the learner does when a volunteer discloses a real red flag; the form asks them to confirm it. */
    redFlagSteps: nonEmpty.max(2000),
    passRule: z.strictObject({
      minimumLevel: nonEmpty.max(60),
      minPercent: z.number().int().min(1).max(100).optional(),
    }),
    criteria: z
      .array(
        z.strictObject({
          id: z.string().regex(/^[a-z0-9-]+$/, "must be a slug"),
          title: nonEmpty.max(200),
          description: nonEmpty.max(1000),
          critical: z.boolean().optional(),
          levels: z
            .array(
              z.strictObject({
                points: z.number().int().min(0).max(100),
                label: nonEmpty.max(60),
                descriptor: nonEmpty.max(1000),
              }),
            )
            .min(2)
            .max(6),
        }),
      )
      .min(1)
      .max(12),
  })
  .superRefine((practical, ctx) => {
    const ids = new Set<string>();
    practical.criteria.forEach((criterion, i) => {
      if (ids.has(criterion.id))
        ctx.addIssue({
          code: "custom",
          path: ["criteria", i, "id"],
          message: `duplicate criterion id '${criterion.id}'`,
        });
      ids.add(criterion.id);
      const points = criterion.levels.map((l) => l.points);
      if (points.some((p, j) => j > 0 && p <= (points[j - 1] ?? Number.NEGATIVE_INFINITY)))
        ctx.addIssue({
          code: "custom",
          path: ["criteria", i, "levels"],
          message: "levels go from the lowest to the highest, each worth more points than the one before",
        });
    });
    for (const problem of passRuleProblems(ruleRubricOf(practical)))
      ctx.addIssue({ code: "custom", path: ["passRule"], message: `refused: ${problem}` });
  });

/** The rubric as the pass rule reads it (docs/decisions/0052): an unmarked criterion is not critical. */
export const ruleRubricOf = (practical: PracticalFile): RuleRubric => ({
  passRule: { minimumLevel: practical.passRule.minimumLevel, minPercent: practical.passRule.minPercent ?? null },
  criteria: practical.criteria.map((c) => ({ ...c, critical: c.critical ?? false })),
});

export type PracticalFile = z.infer<typeof practicalFileSchema>;

/** `practical-exemplars.yaml`: the calibration exemplars, each with its agreed scores and rationale. */
export const exemplarsFileSchema = z.strictObject({
  exemplars: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9-]+$/, "must be a slug"),
        band: z.enum(["fail", "borderline", "strong"]),
        text: nonEmpty.max(20_000),
        scores: z.array(z.strictObject({ criterionId: nonEmpty.max(100), points: z.number().int() })).min(1),
        decision: z.enum(["pass", "resubmit"]),
        rationale: nonEmpty.max(5000),
      }),
    )
    .min(3, "at least three exemplars (fail, borderline and strong)")
    .max(12),
});
type ExemplarFile = z.infer<typeof exemplarsFileSchema>["exemplars"][number];

/** The exemplars' problems against their rubric: each criterion scored once at one of its levels, the decision the pass rule gives, every band present. */
export function exemplarProblems(practical: PracticalFile, exemplars: ExemplarFile[]): string[] {
  const problems: string[] = [];
  const rubric = ruleRubricOf(practical);
  for (const band of ["fail", "borderline", "strong"] as const)
    if (!exemplars.some((e) => e.band === band)) problems.push(`no '${band}' exemplar`);
  const ids = new Set<string>();
  for (const e of exemplars) {
    if (ids.has(e.id)) problems.push(`duplicate exemplar id '${e.id}'`);
    ids.add(e.id);
    const byId = new Map(e.scores.map((s) => [s.criterionId, s.points]));
    if (byId.size !== e.scores.length) problems.push(`${e.id}: a criterion is scored twice`);
    for (const c of practical.criteria) {
      const points = byId.get(c.id);
      if (points === undefined) problems.push(`${e.id}: criterion '${c.id}' has no agreed score`);
      else if (!c.levels.some((l) => l.points === points))
        problems.push(`${e.id}: ${points} is not a level of '${c.id}'`);
    }
    for (const id of byId.keys())
      if (!practical.criteria.some((c) => c.id === id)) problems.push(`${e.id}: '${id}' is not a criterion`);
    if (problems.length) continue;
    const meets = evaluatePassRule(rubric, byId).meets;
    if (meets !== (e.decision === "pass"))
      problems.push(
        `${e.id}: the agreed scores ${meets ? "meet" : "do not meet"} the pass rule, but the decision is ${e.decision}`,
      );
    if (e.band === "strong" && !meets) problems.push(`${e.id}: a strong exemplar passes`);
    if (e.band === "fail" && meets) problems.push(`${e.id}: a fail exemplar does not pass`);
  }
  return problems;
}

export interface LoadedPractical extends PracticalFile {
  briefMarkdown: string;
  briefHtml: string;
  exemplars: ExemplarFile[];
}
export type ExamFile = z.infer<typeof examFileSchema>;

export interface LoadedLesson {
  id: string;
  title: string;
  duration: string;
  html: string;
  markdown: string;
  file: string;
  /** Review date and reviewer's role when the front matter overrides the course's. */
  lastReviewed: string | null;
  reviewerRole: string | null;
}
export interface LoadedModule {
  id: string;
  title: string;
  description: string;
  lessons: LoadedLesson[];
  quiz: QuizFile | null;
}
export interface LoadedCourse {
  id: string;
  course: z.infer<typeof courseFileSchema>;
  modules: LoadedModule[];
  /** The cumulative final exam (`exam.json`), when the course has one. */
  exam: ExamFile | null;
  /** The practical skills assessment (`practical.md`), when the course has one. */
  practical: LoadedPractical | null;
  /** The folder it was read from. */
  dir?: string;
}
export interface LoadedContent {
  courses: LoadedCourse[];
  hash: string;
}

export class ContentError extends Error {}

const PREFIXED = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
const LESSON_FILE = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.(md|html)$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function fail(root: string, file: string, message: string): never {
  throw new ContentError(`${relative(root, file) || file}: ${message}`);
}

function parseWith<T>(root: string, file: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = firstIssue(result.error);
    fail(root, file, `${issue.path.length ? issue.path.join(".") : "(file)"}: ${issue.message}`);
  }
  return result.data;
}

function readJson(root: string, file: string): unknown {
  if (!existsSync(file)) fail(root, file, "file is missing");
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    fail(root, file, `invalid JSON (${messageOf(error)})`);
  }
}

/** A folder's entries named `NN-slug` (with PREFIXED or LESSON_FILE), in their numbers' order. */
function sortedEntries(dir: string, pattern: RegExp): { name: string; slug: string; extension?: string }[] {
  const entries: { name: string; position: number; slug: string; extension?: string }[] = [];
  for (const name of readdirSync(dir)) {
    const [, position, slug, extension] = pattern.exec(name) ?? [];
    if (position !== undefined && slug !== undefined)
      entries.push({ name, position: Number(position), slug, ...(extension ? { extension } : {}) });
  }
  return entries.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
}

const isLessonFormat = (extension: string | undefined) => extension === "md" || extension === "html";

/** Markdown with `figure` and `video` blocks (lesson-media.ts) to sanitised HTML. Throws MediaError on a bad block. */
export function renderLessonBody(body: string, format: "md" | "html", media?: MediaContext): string {
  const markdown = new Marked({
    async: false,
    gfm: true,
    renderer: {
      code({ text, lang }) {
        if (lang === "figure") return renderFigure(text, media);
        if (lang === "video") return renderVideo(text, media);
        return false;
      },
    },
  });
  const html = format === "md" ? (markdown.parse(body) as string) : body;
  return sanitizeLessonHtml(html);
}

/** The calibration exemplars beside `practical.md` (docs/decisions/0053). */
export const EXEMPLARS_FILE = "practical-exemplars.yaml";

/** A Markdown file's YAML front matter and its trimmed body. */
function readFrontMatter(root: string, file: string): { meta: unknown; body: string } {
  const raw = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  const fm = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(raw);
  const [, yaml, body] = fm ?? [];
  if (yaml === undefined || body === undefined) fail(root, file, "front matter (--- ... ---) is missing");
  try {
    return { meta: parseYaml(yaml), body: body.trim() };
  } catch (error) {
    fail(root, file, `front matter is not valid YAML (${messageOf(error)})`);
  }
}

function loadLesson(root: string, file: string, id: string, format: "md" | "html", media: MediaContext): LoadedLesson {
  const { meta, body } = readFrontMatter(root, file);
  const front = parseWith(root, file, lessonFrontMatterSchema, meta);
  if (!body) fail(root, file, "body: the lesson has no text");
  let html: string;
  try {
    html = renderLessonBody(body, format, media);
  } catch (error) {
    if (error instanceof MediaError) fail(root, file, error.message);
    throw error;
  }
  const [problem] = mediaProblems(html);
  if (problem !== undefined) fail(root, file, problem);
  return {
    id,
    title: front.title,
    duration: front.duration,
    markdown: body,
    html,
    file,
    lastReviewed: front.lastReviewed ?? null,
    reviewerRole: front.reviewerRole ?? null,
  };
}

/** A question's `lesson` names the lesson it tests: one of the module's for a quiz, of the course's for the exam. */
function checkQuestionLessons(root: string, file: string, quiz: QuizFile, lessonIds: Set<string>, scope: string) {
  quiz.questions.forEach((q, i) => {
    if (q.lesson !== undefined && !lessonIds.has(q.lesson))
      fail(root, file, `questions.${i}.lesson: '${q.lesson}' is not a lesson of ${scope}`);
  });
}

/**
 * The blueprint names every module of the course once, sums to the draw, and each module's share of the
 * bank holds at least the items the blueprint takes from it (so every draw can follow it).
 */
function checkBlueprint(root: string, file: string, exam: ExamFile, modules: LoadedModule[]) {
  const [first] = blueprintProblems({
    blueprint: exam.blueprint,
    draw: exam.draw ?? DEFAULT_DRAW,
    modules: modules.map((m) => ({ id: m.id, lessonIds: m.lessons.map((l) => l.id) })),
    questions: exam.questions,
  });
  if (first) fail(root, file, first);
}

/** Reads and validates every course folder. Throws a ContentError naming the file and field at the first problem. */
export function loadContent(contentDir = DEFAULT_CONTENT_DIR): LoadedContent {
  const root = resolve(contentDir, "..");
  const hash = createHash("sha256");
  const courses: LoadedCourse[] = [];
  if (!existsSync(contentDir)) return { courses, hash: hash.digest("hex") };

  for (const courseId of readdirSync(contentDir).sort()) {
    const courseDir = join(contentDir, courseId);
    if (!statSync(courseDir).isDirectory()) continue;
    courses.push(loadCourseFolder(root, courseDir, courseId, hash));
  }
  return { courses, hash: hash.digest("hex") };
}

/** One course folder, read and validated; `hash` takes in every file it reads. */
export function loadCourseFolder(root: string, courseDir: string, courseId: string, hash: Hash): LoadedCourse {
  if (!SLUG.test(courseId)) fail(root, courseDir, "folder name must be a lowercase slug");
  const courseFile = join(courseDir, "course.json");
  const course = parseWith(root, courseFile, courseFileSchema, readJson(root, courseFile));
  hash.update(relative(root, courseFile)).update(readFileSync(courseFile));

  const modules: LoadedModule[] = [];
  const lessonIds = new Map<string, string>();
  const modulesDir = join(courseDir, "modules");
  if (existsSync(modulesDir)) {
    for (const { name, slug: moduleId } of sortedEntries(modulesDir, PREFIXED)) {
      const moduleDir = join(modulesDir, name);
      const moduleFile = join(moduleDir, "module.json");
      const mod = parseWith(root, moduleFile, moduleFileSchema, readJson(root, moduleFile));
      hash.update(relative(root, moduleFile)).update(readFileSync(moduleFile));
      if (modules.some((m) => m.id === moduleId)) fail(root, moduleDir, `duplicate module id '${moduleId}'`);
      const lessons: LoadedLesson[] = [];
      for (const entry of sortedEntries(moduleDir, LESSON_FILE)) {
        const file = join(moduleDir, entry.name);
        const { slug: id, extension } = entry;
        if (lessonIds.has(id)) fail(root, file, `lesson id '${id}' is already used by ${lessonIds.get(id)}`);
        lessonIds.set(id, relative(root, file));
        if (!isLessonFormat(extension)) fail(root, file, "a lesson file ends in .md or .html");
        lessons.push(loadLesson(root, file, id, extension, { courseId, courseDir }));
        hash.update(relative(root, file)).update(readFileSync(file));
      }
      const quizPath = join(moduleDir, "quiz.json");
      let quiz: QuizFile | null = null;
      if (existsSync(quizPath)) {
        quiz = parseWith(root, quizPath, quizFileSchema, readJson(root, quizPath));
        hash.update(relative(root, quizPath)).update(readFileSync(quizPath));
      }
      if (lessons.length === 0) fail(root, moduleDir, "a module needs at least one lesson");
      if (quiz) checkQuestionLessons(root, quizPath, quiz, new Set(lessons.map((l) => l.id)), "this module");
      modules.push({ id: moduleId, title: mod.title, description: mod.description, lessons, quiz });
    }
  }
  // Lessons embed a hash of each media file they use; hashing the folder makes a changed file re-import.
  const mediaDir = join(courseDir, MEDIA_FOLDER);
  if (existsSync(mediaDir)) {
    for (const name of readdirSync(mediaDir).sort()) {
      if (!MEDIA_FILE.test(name)) fail(root, join(mediaDir, name), `media file names look like ${MEDIA_FILE}`);
      hash.update(relative(root, join(mediaDir, name))).update(readFileSync(join(mediaDir, name)));
    }
  }
  if (!course.comingSoon && modules.length === 0)
    fail(root, courseFile, "comingSoon: a course on sale needs at least one module");
  const examPath = join(courseDir, "exam.json");
  let exam: ExamFile | null = null;
  if (existsSync(examPath)) {
    exam = parseWith(root, examPath, examFileSchema, readJson(root, examPath));
    checkQuestionLessons(root, examPath, exam, new Set(lessonIds.keys()), "this course");
    checkBlueprint(root, examPath, exam, modules);
    hash.update(relative(root, examPath)).update(readFileSync(examPath));
  }
  const practicalPath = join(courseDir, "practical.md");
  let practical: LoadedPractical | null = null;
  if (existsSync(practicalPath)) {
    const { meta, body } = readFrontMatter(root, practicalPath);
    if (!body) fail(root, practicalPath, "body: the brief has no text");
    const file = parseWith(root, practicalPath, practicalFileSchema, meta);
    const exemplarsPath = join(courseDir, EXEMPLARS_FILE);
    if (!existsSync(exemplarsPath))
      fail(root, exemplarsPath, "file is missing (every practical ships its calibration exemplars)");
    let exemplarsMeta: unknown;
    try {
      exemplarsMeta = parseYaml(readFileSync(exemplarsPath, "utf8"));
    } catch (error) {
      fail(root, exemplarsPath, `not valid YAML (${messageOf(error)})`);
    }
    const { exemplars } = parseWith(root, exemplarsPath, exemplarsFileSchema, exemplarsMeta);
    const problems = exemplarProblems(file, exemplars);
    if (problems[0]) fail(root, exemplarsPath, problems[0]);
    practical = {
      ...file,
      briefMarkdown: body,
      briefHtml: renderLessonBody(body, "md", { courseId, courseDir }),
      exemplars,
    };
    hash.update(relative(root, practicalPath)).update(readFileSync(practicalPath));
    hash.update(relative(root, exemplarsPath)).update(readFileSync(exemplarsPath));
  }
  return { id: courseId, course, modules, exam, practical, dir: courseDir };
}
