import type { CourseDocument, OutlineModule } from "#shared/schemas/studio.ts";

/** The draft's modules and lessons as the outline edits them: ids and titles, in order. */
export function outlineOf(document: CourseDocument): OutlineModule[] {
  return document.modules.map((m) => ({
    id: m.id,
    title: typeof m.module.title === "string" ? m.module.title : m.id,
    lessons: m.lessons.map((l) => ({ id: l.id, title: typeof l.meta.title === "string" ? l.meta.title : l.id })),
  }));
}

/** A new id from a title, unlike every id in use (ids are the files' folder names and stay once published). */
export function newId(title: string, taken: Iterable<string>, fallback: string) {
  const used = new Set(taken);
  const base =
    title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || fallback;
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  return id;
}

export const allIds = (outline: OutlineModule[]) => [
  ...outline.map((m) => m.id),
  ...outline.flatMap((m) => m.lessons.map((l) => l.id)),
];

export function moveItem<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** Where a lesson is: its module's index and its own. */
export function findLesson(outline: OutlineModule[], lessonId: string) {
  for (const [m, module] of outline.entries()) {
    const l = module.lessons.findIndex((x) => x.id === lessonId);
    if (l >= 0) return { m, l };
  }
  return null;
}

/**
 * Moves a lesson one place up or down; past the first or last place of its module it goes to the end
 * of the module before or the start of the module after.
 */
export function stepLesson(outline: OutlineModule[], lessonId: string, step: -1 | 1): OutlineModule[] {
  const at = findLesson(outline, lessonId);
  if (!at) return outline;
  const module = outline[at.m] as OutlineModule;
  const to = at.l + step;
  if (to >= 0 && to < module.lessons.length)
    return outline.map((x, i) => (i === at.m ? { ...x, lessons: moveItem(x.lessons, at.l, to) } : x));
  const target = at.m + step;
  if (target < 0 || target >= outline.length) return outline;
  return moveLessonTo(outline, lessonId, target, step === 1 ? 0 : Number.POSITIVE_INFINITY);
}

/** Moves a lesson into another module (at `index`, clamped to its end). */
export function moveLessonTo(outline: OutlineModule[], lessonId: string, moduleIndex: number, index: number) {
  const at = findLesson(outline, lessonId);
  if (!at) return outline;
  const lesson = outline[at.m]?.lessons[at.l];
  if (!lesson) return outline;
  const without = outline.map((x, i) =>
    i === at.m ? { ...x, lessons: x.lessons.filter((l) => l.id !== lessonId) } : x,
  );
  return without.map((x, i) => {
    if (i !== moduleIndex) return x;
    const lessons = [...x.lessons];
    lessons.splice(Math.min(index, lessons.length), 0, lesson);
    return { ...x, lessons };
  });
}

/** Where a lesson now is, as an announcement says it. */
export function placeOf(outline: OutlineModule[], lessonId: string) {
  const at = findLesson(outline, lessonId);
  if (!at) return "";
  const module = outline[at.m] as OutlineModule;
  return `position ${at.l + 1} of ${module.lessons.length} in module ${at.m + 1}, ${module.title}`;
}

/** The outline as lines of text, to compare two of them. */
export function outlineLines(outline: OutlineModule[]) {
  return outline.map(
    (m, i) => `Module ${i + 1}, ${m.title}: ${m.lessons.map((l) => l.title).join("; ") || "no lessons"}`,
  );
}
