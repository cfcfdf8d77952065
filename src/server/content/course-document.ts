import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { CourseDocument } from "#shared/schemas/studio.ts";
import { messageOf } from "../errors.ts";
import {
  ContentError,
  DEFAULT_DRAW,
  EXEMPLARS_FILE,
  type LoadedCourse,
  loadCourseFolder,
  ruleRubricOf,
} from "./content-files.ts";
import { MEDIA_FOLDER } from "./lesson-media.ts";

/**
 * A course as one document (docs/decisions/0055) and its two doors: a course folder in the files'
 * format (docs/decisions/0005) read into a document, and a document written back as exactly those
 * files. A document is checked by writing it as a folder and loading that folder with the import's
 * own rules, so a draft, a publish and an import refuse the same things with the same messages.
 */

/** A media file's bytes by its SHA-256. */
export type MediaBytes = Map<string, Uint8Array>;

const PREFIXED = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
const LESSON_FILE = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.(md|html)$/;

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const prefixed = (index: number, slug: string) => `${String(index + 1).padStart(2, "0")}-${slug}`;

function entries(dir: string, pattern: RegExp) {
  return readdirSync(dir)
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter((e): e is { name: string; match: RegExpExecArray } => e.match !== null)
    .sort((a, b) => Number(a.match[1]) - Number(b.match[1]) || a.name.localeCompare(b.name));
}

function readJsonObject(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new ContentError(`${file}: invalid JSON (${messageOf(error)})`);
  }
}

function readYamlObject(file: string): Record<string, unknown> {
  try {
    return (parseYaml(readFileSync(file, "utf8")) ?? {}) as Record<string, unknown>;
  } catch (error) {
    throw new ContentError(`${file}: invalid YAML (${messageOf(error)})`);
  }
}

function readFrontMatterFile(file: string): { meta: Record<string, unknown>; body: string } {
  const raw = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  const [, yaml, body] = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(raw) ?? [];
  if (yaml === undefined || body === undefined)
    throw new ContentError(`${file}: front matter (--- ... ---) is missing`);
  return { meta: (parseYaml(yaml) ?? {}) as Record<string, unknown>, body: body.trim() };
}

/** A course folder as a document and the bytes of its media files. The folder is checked by loadCourseFolder. */
export function readCourseDocument(courseDir: string): { document: CourseDocument; media: MediaBytes } {
  const modulesDir = join(courseDir, "modules");
  const modules = existsSync(modulesDir)
    ? entries(modulesDir, PREFIXED).map(({ name, match }) => {
        const moduleDir = join(modulesDir, name);
        const quizFile = join(moduleDir, "quiz.json");
        return {
          id: match[2] ?? name,
          module: readJsonObject(join(moduleDir, "module.json")),
          lessons: entries(moduleDir, LESSON_FILE).map(({ name: file, match: lesson }) => ({
            id: lesson[2] ?? file,
            format: lesson[3] === "html" ? ("html" as const) : ("md" as const),
            ...readFrontMatterFile(join(moduleDir, file)),
          })),
          quiz: existsSync(quizFile) ? readJsonObject(quizFile) : null,
        };
      })
    : [];
  const media: MediaBytes = new Map();
  const mediaList: CourseDocument["media"] = [];
  const mediaDir = join(courseDir, MEDIA_FOLDER);
  if (existsSync(mediaDir))
    for (const name of readdirSync(mediaDir).sort()) {
      const bytes = readFileSync(join(mediaDir, name));
      const hash = sha256(bytes);
      media.set(hash, bytes);
      mediaList.push({ name, sha256: hash });
    }
  const examFile = join(courseDir, "exam.json");
  const practicalFile = join(courseDir, "practical.md");
  const exemplarsFile = join(courseDir, EXEMPLARS_FILE);
  return {
    document: {
      course: readJsonObject(join(courseDir, "course.json")),
      modules,
      exam: existsSync(examFile) ? readJsonObject(examFile) : null,
      practical: existsSync(practicalFile)
        ? {
            ...readFrontMatterFile(practicalFile),
            exemplars: existsSync(exemplarsFile) ? readYamlObject(exemplarsFile) : null,
          }
        : null,
      media: mediaList,
    },
    media,
  };
}

const jsonFile = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const frontMatterFile = (meta: Record<string, unknown>, body: string, gap: string) =>
  `---\n${stringifyYaml(meta, { lineWidth: 0 })}---\n${gap}${body}\n`;

/** Writes a document as a course folder (the files' format); media bytes come from `media`. */
export function writeCourseDocument(document: CourseDocument, media: MediaBytes, courseDir: string): void {
  mkdirSync(courseDir, { recursive: true });
  writeFileSync(join(courseDir, "course.json"), jsonFile(document.course));
  document.modules.forEach((mod, index) => {
    const moduleDir = join(courseDir, "modules", prefixed(index, mod.id));
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, "module.json"), jsonFile(mod.module));
    for (const [n, lesson] of mod.lessons.entries())
      writeFileSync(
        join(moduleDir, `${prefixed(n, lesson.id)}.${lesson.format}`),
        frontMatterFile(lesson.meta, lesson.body, ""),
      );
    if (mod.quiz) writeFileSync(join(moduleDir, "quiz.json"), jsonFile(mod.quiz));
  });
  if (document.exam) writeFileSync(join(courseDir, "exam.json"), jsonFile(document.exam));
  if (document.practical)
    writeFileSync(
      join(courseDir, "practical.md"),
      frontMatterFile(document.practical.meta, document.practical.body, "\n"),
    );
  if (document.practical?.exemplars)
    writeFileSync(join(courseDir, EXEMPLARS_FILE), stringifyYaml(document.practical.exemplars, { lineWidth: 0 }));
  if (document.media.length > 0) {
    mkdirSync(join(courseDir, MEDIA_FOLDER), { recursive: true });
    for (const file of document.media) {
      const bytes = media.get(file.sha256);
      if (!bytes) throw new ContentError(`${MEDIA_FOLDER}/${file.name}: the file's bytes are not stored`);
      writeFileSync(join(courseDir, MEDIA_FOLDER, file.name), bytes);
    }
  }
}

/** The document's identity: the same content always hashes the same. */
export const documentHash = (document: CourseDocument) => sha256(JSON.stringify(document));

/**
 * Checks a document with the import's rules and returns it loaded (lessons rendered and sanitised).
 * Throws a ContentError naming the file and field of the first problem.
 */
export function loadCourseDocument(courseId: string, document: CourseDocument, media: MediaBytes): LoadedCourse {
  const root = mkdtempSync(join(tmpdir(), "course-document-"));
  try {
    const courseDir = join(root, courseId);
    writeCourseDocument(document, media, courseDir);
    return loadCourseFolder(root, courseDir, courseId, createHash("sha256"));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The content tables' rows of one course version: what the catalogue serves (docs/decisions/0055). */
export interface ServedRows {
  course: {
    id: string;
    position: number;
    title: string;
    description: string;
    level: string;
    price: number;
    duration: string;
    gradient: string;
    comingSoon: boolean;
    learningOutcomes: string;
    seoTitle: string;
    seoDescription: string;
    seoKeywords: string;
    marketplaceUrl: string | null;
    maxAttempts: number | null;
    cooldownHours: number | null;
    studyHours: number | null;
    ceApproval: string | null;
    lastReviewed: string | null;
    reviewerRole: string | null;
    titleNotice: string | null;
    contentHash: string;
    updatedAt: string;
    version: number;
  };
  modules: { courseId: string; id: string; position: number; title: string; description: string }[];
  lessons: {
    courseId: string;
    id: string;
    moduleId: string;
    position: number;
    title: string;
    duration: string;
    html: string;
    lastReviewed: string | null;
    reviewerRole: string | null;
  }[];
  quizzes: { courseId: string; moduleId: string; title: string; draw: number; questions: string }[];
  exam: {
    courseId: string;
    title: string;
    draw: number;
    timeLimitMinutes: number | null;
    questions: string;
    blueprint: string | null;
  } | null;
  practical: {
    courseId: string;
    title: string;
    briefHtml: string;
    criteria: string;
    passRule: string;
    requiredForCertificate: boolean;
    evidence: "written" | "recording";
    assessorRequirements: string;
    redFlagSteps: string;
    exemplars: string;
  } | null;
}

/** A loaded course as the content tables' rows of version `version`. */
export function servedRowsOf(
  loaded: LoadedCourse,
  stamp: { position: number; contentHash: string; updatedAt: string; version: number },
): ServedRows {
  const { id, course, modules, exam, practical } = loaded;
  let position = 0;
  return {
    course: {
      id,
      position: course.position ?? stamp.position,
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
      ceApproval: course.continuingEducation ? JSON.stringify(course.continuingEducation) : null,
      lastReviewed: course.lastReviewed ?? null,
      reviewerRole: course.reviewerRole ?? null,
      titleNotice: course.titleNotice ?? null,
      contentHash: stamp.contentHash,
      updatedAt: stamp.updatedAt,
      version: stamp.version,
    },
    modules: modules.map((m, index) => ({
      courseId: id,
      id: m.id,
      position: index,
      title: m.title,
      description: m.description,
    })),
    lessons: modules.flatMap((m) =>
      m.lessons.map((lesson) => ({
        courseId: id,
        id: lesson.id,
        moduleId: m.id,
        position: position++,
        title: lesson.title,
        duration: lesson.duration,
        html: lesson.html,
        lastReviewed: lesson.lastReviewed,
        reviewerRole: lesson.reviewerRole,
      })),
    ),
    quizzes: modules.flatMap((m) =>
      m.quiz
        ? [
            {
              courseId: id,
              moduleId: m.id,
              title: m.quiz.title,
              draw: m.quiz.draw ?? DEFAULT_DRAW,
              questions: JSON.stringify(m.quiz.questions),
            },
          ]
        : [],
    ),
    exam: exam
      ? {
          courseId: id,
          title: exam.title,
          draw: exam.draw ?? DEFAULT_DRAW,
          timeLimitMinutes: exam.timeLimitMinutes ?? null,
          questions: JSON.stringify(exam.questions),
          blueprint: JSON.stringify(modules.map((m) => ({ moduleId: m.id, count: exam.blueprint[m.id] }))),
        }
      : null,
    practical: practical
      ? {
          courseId: id,
          title: practical.title,
          briefHtml: practical.briefHtml,
          criteria: JSON.stringify(ruleRubricOf(practical).criteria),
          passRule: JSON.stringify(ruleRubricOf(practical).passRule),
          requiredForCertificate: practical.requiredForCertificate,
          evidence: practical.evidence ?? "written",
          assessorRequirements: practical.assessorRequirements,
          redFlagSteps: practical.redFlagSteps,
          exemplars: JSON.stringify(practical.exemplars),
        }
      : null,
  };
}
