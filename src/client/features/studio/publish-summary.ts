import type { CourseDocument } from "#shared/schemas/studio.ts";

/** What changed in one kind of part (lessons, questions, exam items, criteria) against the published version. */
export interface PartChanges {
  added: string[];
  changed: string[];
  removed: string[];
}
export interface LessonChange {
  id: string;
  title: string;
  before: string;
  after: string;
}
export interface PublishSummary {
  first: boolean;
  settingsChanged: string[];
  lessons: PartChanges;
  lessonTexts: LessonChange[];
  questions: PartChanges;
  exam: PartChanges & { settingsChanged: boolean };
  rubric: PartChanges & { briefChanged: boolean };
  /** Whether the server will accept "minor": nothing added, removed, re-keyed or reordered (docs/decisions/0055). */
  majorRequired: boolean;
  reasonsForMajor: string[];
}

type Item = { id: string; label: string; value: unknown; key: unknown };
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const str = (v: unknown, fallback: string) => (typeof v === "string" && v ? v : fallback);

function compare(before: Item[], after: Item[]): PartChanges & { keysChanged: boolean } {
  const old = new Map(before.map((i) => [i.id, i]));
  const now = new Map(after.map((i) => [i.id, i]));
  return {
    added: after.filter((i) => !old.has(i.id)).map((i) => i.label),
    removed: before.filter((i) => !now.has(i.id)).map((i) => i.label),
    changed: after.filter((i) => old.has(i.id) && !same(old.get(i.id)?.value, i.value)).map((i) => i.label),
    keysChanged: after.some((i) => old.has(i.id) && !same(old.get(i.id)?.key, i.key)),
  };
}

type Question = {
  id?: unknown;
  question?: unknown;
  correctAnswer?: unknown;
  options?: { id?: unknown }[];
  lessonId?: unknown;
};
const questionItems = (questions: unknown, where: string): Item[] =>
  (Array.isArray(questions) ? (questions as Question[]) : []).map((q, i) => ({
    id: `${where}/${String(q.id ?? i)}`,
    label: `${where}: ${str(q.question, `question ${i + 1}`)}`,
    value: q,
    // What grading depends on: the key, the option ids and the lesson it tests.
    key: [q.correctAnswer, (q.options ?? []).map((o) => o.id), q.lessonId],
  }));

function quizItems(document: CourseDocument): Item[] {
  return document.modules.flatMap((m) =>
    questionItems(m.quiz?.questions, `Module ${str(m.module.title, m.id)}`).map((item) => ({
      ...item,
      key: [item.key, m.quiz?.draw],
    })),
  );
}

type Criterion = { id?: unknown; name?: unknown; title?: unknown; levels?: unknown };
function criteria(document: CourseDocument): Item[] {
  const list = document.practical?.meta.criteria;
  return (Array.isArray(list) ? (list as Criterion[]) : []).map((c, i) => ({
    id: String(c.id ?? i),
    label: str(c.name ?? c.title, `criterion ${i + 1}`),
    value: c,
    key: c.levels,
  }));
}

const lessonsOf = (document: CourseDocument) =>
  document.modules.flatMap((m) => m.lessons.map((l) => ({ module: m.id, lesson: l })));

/** The draft against the published version, part by part; `published` null for a first publish. */
export function summarise(draft: CourseDocument, published: CourseDocument | null): PublishSummary {
  const base: CourseDocument = published ?? { course: {}, modules: [], exam: null, practical: null, media: [] };
  const lessonItems = (d: CourseDocument): Item[] =>
    lessonsOf(d).map(({ lesson }) => ({
      id: lesson.id,
      label: str(lesson.meta.title, lesson.id),
      value: [lesson.meta, lesson.body],
      key: null,
    }));
  const lessons = compare(lessonItems(base), lessonItems(draft));
  const oldLessons = new Map(lessonsOf(base).map(({ lesson }) => [lesson.id, lesson]));
  const lessonTexts = lessonsOf(draft)
    .map(({ lesson }) => ({ lesson, before: oldLessons.get(lesson.id) }))
    .filter(({ lesson, before }) => before && before.body !== lesson.body)
    .map(({ lesson, before }) => ({
      id: lesson.id,
      title: str(lesson.meta.title, lesson.id),
      before: before?.body ?? "",
      after: lesson.body,
    }));
  const questions = compare(quizItems(base), quizItems(draft));
  const examQuestions = compare(
    questionItems(base.exam?.questions, "Exam"),
    questionItems(draft.exam?.questions, "Exam"),
  );
  const { questions: _a, ...examRest } = (base.exam ?? {}) as Record<string, unknown>;
  const { questions: _b, ...examNow } = (draft.exam ?? {}) as Record<string, unknown>;
  const rubric = compare(criteria(base), criteria(draft));
  const { criteria: _c, ...ruleBefore } = (base.practical?.meta ?? {}) as Record<string, unknown>;
  const { criteria: _d, ...ruleNow } = (draft.practical?.meta ?? {}) as Record<string, unknown>;

  const settingsChanged = [...new Set([...Object.keys(base.course), ...Object.keys(draft.course)])].filter(
    (k) => !same(base.course[k], draft.course[k]),
  );
  const order = (d: CourseDocument) => d.modules.map((m) => [m.id, m.lessons.map((l) => l.id)]);
  const reasons: string[] = [];
  if (lessons.added.length || lessons.removed.length) reasons.push("lessons are added or removed");
  else if (!same(order(base), order(draft))) reasons.push("modules or lessons are in another order");
  if (questions.added.length || questions.removed.length || questions.keysChanged)
    reasons.push("a module quiz has questions added, removed or re-keyed");
  if (
    examQuestions.added.length ||
    examQuestions.removed.length ||
    examQuestions.keysChanged ||
    !same(examRest.blueprint, examNow.blueprint) ||
    !same(examRest.draw, examNow.draw)
  )
    reasons.push("the exam's questions, keys, draw or blueprint change");
  if (
    rubric.added.length ||
    rubric.removed.length ||
    rubric.keysChanged ||
    !same(ruleBefore.passRule, ruleNow.passRule)
  )
    reasons.push("the practical's criteria, levels or pass rule change");
  return {
    first: published === null,
    settingsChanged,
    lessons,
    lessonTexts,
    questions,
    exam: { ...examQuestions, settingsChanged: !same(examRest, examNow) },
    rubric: { ...rubric, briefChanged: base.practical?.body !== draft.practical?.body },
    majorRequired: published !== null && reasons.length > 0,
    reasonsForMajor: reasons,
  };
}

/** The studio section where a failed check is fixed, from the file the check names. */
export function sectionOfProblem(problem: string): { section: string; label: string } {
  if (/course\.json/.test(problem)) return { section: "settings", label: "Fix in Settings" };
  if (/quiz\.json/.test(problem)) return { section: "question-banks", label: "Fix in Question banks" };
  if (/exam\.json/.test(problem)) return { section: "exam", label: "Fix in Exam" };
  if (/practical/.test(problem)) return { section: "practical", label: "Fix in Practical" };
  if (/\.(md|html)\b/.test(problem)) return { section: "lessons", label: "Fix in Lessons" };
  return { section: "outline", label: "Fix in Outline" };
}
