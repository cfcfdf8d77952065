import type { CourseDetail } from "#shared/schemas/courses.ts";

type Field = (detail: CourseDetail) => unknown;

/**
 * A course page's JSON with holes where the reader's own state goes: the text between the holes is
 * encoded once per course and content import, and each signed-in read writes only the values.
 */
export interface CourseDetailTemplate {
  /** parts[0] hole[0] parts[1] hole[1] ... parts[n] */
  parts: string[];
  holes: Field[];
}

/** Item `index` of the reader's page, which has the same outline as the visitor's page the template came from. */
function nth<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined)
    throw new Error(`The reader's course page has no item ${index}: it does not match its template.`);
  return item;
}

const MARK = "\u0000hole:";
const MARKED = /"\\u0000hole:(\d+)"/g;

/**
 * The fields of a course page that depend on who reads it (toCourseDetail's learner state); every
 * other field is the same for every reader. Outside production each filled page is compared with
 * the fully encoded one (checkedFill), so a new learner field missing here fails the API tests.
 */
export function courseDetailTemplate(visitor: CourseDetail): CourseDetailTemplate {
  const fields: Field[] = [];
  const hole = (field: Field) => `${MARK}${fields.push(field) - 1}`;
  const marked = {
    ...visitor,
    enrolled: hole((d) => d.enrolled),
    percent: hole((d) => d.percent),
    allModulesComplete: hole((d) => d.allModulesComplete),
    exam: visitor.exam && {
      ...visitor.exam,
      yourTimeLimitMinutes: hole((d) => d.exam?.yourTimeLimitMinutes),
      accessible: hole((d) => d.exam?.accessible),
      bestScore: hole((d) => d.exam?.bestScore),
      passed: hole((d) => d.exam?.passed),
    },
    practical: visitor.practical && {
      ...visitor.practical,
      accessible: hole((d) => d.practical?.accessible),
      passed: hole((d) => d.practical?.passed),
    },
    courseComplete: hole((d) => d.courseComplete),
    missing: hole((d) => d.missing),
    isCompleted: hole((d) => d.isCompleted),
    move: hole((d) => d.move),
    modules: visitor.modules.map((m, i) => ({
      ...m,
      state: hole((d) => nth(d.modules, i).state),
      lessons: m.lessons.map((l, j) => ({
        ...l,
        accessible: hole((d) => nth(nth(d.modules, i).lessons, j).accessible),
        completed: hole((d) => nth(nth(d.modules, i).lessons, j).completed),
      })),
      quiz: m.quiz && {
        ...m.quiz,
        accessible: hole((d) => nth(d.modules, i).quiz?.accessible),
        bestScore: hole((d) => nth(d.modules, i).quiz?.bestScore),
        passed: hole((d) => nth(d.modules, i).quiz?.passed),
      },
    })),
  };
  // JSON.stringify orders keys as the visitor's page has them; the holes are found by their index.
  const pieces = JSON.stringify(marked).split(MARKED);
  const parts: string[] = [];
  const holes: Field[] = [];
  pieces.forEach((piece, k) => {
    if (k % 2 === 0) parts.push(piece);
    else holes.push(nth(fields, Number(piece)));
  });
  return { parts, holes };
}

const encode = (value: unknown) =>
  typeof value === "boolean" || typeof value === "number" ? String(value) : JSON.stringify(value ?? null);

/** The reader's page: the template with this reader's values in its holes. */
export function fillCourseDetail(template: CourseDetailTemplate, detail: CourseDetail): string {
  const [first = "", ...rest] = template.parts;
  let out = first;
  template.holes.forEach((hole, i) => {
    out += encode(hole(detail)) + (rest[i] ?? "");
  });
  return out;
}

/** fillCourseDetail, checked against the whole page encoded in full (tests and development). */
export function checkedFill(template: CourseDetailTemplate, detail: CourseDetail): string {
  const filled = fillCourseDetail(template, detail);
  if (!sameJson(JSON.parse(filled), JSON.parse(JSON.stringify(detail))))
    throw new Error(`Course page template differs from the encoded page for ${detail.id}`);
  return filled;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
