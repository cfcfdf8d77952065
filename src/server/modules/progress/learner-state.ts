import { type Kysely, type RawBuilder, sql } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { ModuleState } from "#shared/schemas/courses.ts";
import { type SessionUserRow, selectSessionUser } from "../../auth/session-cookie.ts";
import { engineOf } from "../../db/database.ts";
import { preparedQuery } from "../../db/fast-paths.ts";
import type { DB } from "../../db/schema.ts";
import {
  type CatalogueCourse,
  type CourseCatalogue,
  FINAL_EXAM_ID,
  PRACTICAL_KEY,
} from "../courses/course-catalogue.ts";
import { PASS_MARK, progressPercent } from "./progress-formula.ts";

export { FINAL_EXAM_ID };

export interface QuizStats {
  /** Score of the latest attempt. */
  score: number;
  bestScore: number;
  attempts: number;
  /** Some attempt passed: the `passed` stored when it was graded. */
  passed: boolean;
}

export interface LearnerRecords {
  enrolled: boolean;
  completedLessons: Set<string>;
  quizStats: Map<string, QuizStats>;
  /** An assessor passed the learner's practical skills assessment. */
  practicalPassed: boolean;
  progress: { id: string; isCompleted: boolean; completedAt: string | null; createdAt: string } | null;
  /** The version line the learner's enrolment serves (decision 0055); null when not enrolled. */
  courseLine: number | null;
  /** Every quiz and exam attempt in the order made, with the version it was made on. */
  attempts: { item: string; score: number; passed: boolean; version: number }[];
  /** The versions the learner's passed practical submissions were made on. */
  practicalPasses: number[];
}

export const NO_RECORDS: LearnerRecords = {
  enrolled: false,
  completedLessons: new Set(),
  quizStats: new Map(),
  practicalPassed: false,
  progress: null,
  courseLine: null,
  attempts: [],
  practicalPasses: [],
};

/** Everything about one learner in one course, in one query whatever the number of learners. */
export async function loadLearnerRecords(db: Kysely<DB>, userId: string, courseId: string): Promise<LearnerRecords> {
  return (await loadRecords(db, userId, courseId)).get(courseId) ?? emptyRecords();
}

/** The same for every course the learner has records in (My Learning), in one query too. */
export function loadAllLearnerRecords(db: Kysely<DB>, userId: string): Promise<Map<string, LearnerRecords>> {
  return loadRecords(db, userId);
}

interface RecordRow {
  /**
   * e: enrolment, l: completed lesson, q: quiz attempt, p: progress row, x: passed practical, s: session,
   * +: a row a route reads beside them (`LearnerStatement`)
   */
  kind: "e" | "l" | "q" | "p" | "x" | "s" | "+";
  courseId: string;
  /** Lesson id, module id (attempt) or progress row id. */
  item: string | null;
  /** Attempt score. */
  num: number | null;
  /** The attempt's stored pass, set once when it was graded, or the progress row's isCompleted. */
  passed: boolean | null;
  at: string | null;
  completedAt: string | null;
  seq: string | null;
  /** The attempt's or passed submission's course version, or the enrolment's line. */
  ver: number | null;
}

/**
 * All of a learner's records as one indexed row set (each branch reads its (userId, courseId)
 * index), attempts in the order they were made. `session` adds the session's row (kind 's'), and
 * `beside` a route's own rows (kind '+', `LearnerStatement`); both carry their row in `doc`.
 */
function recordsSql(scope: RawBuilder<unknown>, session?: RawBuilder<unknown>, beside?: RawBuilder<unknown>) {
  // The branches with typed columns come first: PostgreSQL resolves a union's types left to right.
  return sql<RecordRow>`
    select 'q' as kind, "courseId", "moduleId" as item, score as num, passed, "createdAt" as at, null as "completedAt", id as seq, "courseVersion" as ver${session ? sql`, null::json as doc` : sql``}
      from "quizAttempt" where ${scope}
    union all
    select 'p', "courseId", id, null, "isCompleted", "createdAt", "completedAt", null, null${session ? sql`, null` : sql``} from "courseProgress" where ${scope}
    union all
    select 'l', "courseId", "lessonId", null, null, null, null, null, null${session ? sql`, null` : sql``} from "lessonCompletion" where ${scope}
    union all
    select 'e', "courseId", null, null, null, null, null, null, "courseLine"${session ? sql`, null` : sql``} from enrollment where ${scope}
    union all
    select 'x', "courseId", null, null, null, null, null, null, "courseVersion"${session ? sql`, null` : sql``} from "practicalSubmission" where ${scope} and status = 'passed'
    ${session ? sql`union all select 's', null, null, null, null, null, null, null, null, ${session}` : sql``}
    ${beside ? sql`union all select '+', null, tag, null, null, at, null, seq, null, doc from (${beside}) as beside` : sql``}
    order by kind, at, seq`;
}

/** Compiled once per database. */
const oneCourseRecords = preparedQuery(
  (_db, userId: string, courseId: string) => recordsSql(sql`"userId" = ${userId} and "courseId" = ${courseId}`),
  2,
);
const allCourseRecords = preparedQuery((_db, userId: string) => recordsSql(sql`"userId" = ${userId}`), 1);

/**
 * PostgreSQL: the session (with its user) and the session user's records in one course, in one
 * statement and one round trip instead of two. The session row is read on every request as before.
 */
const sessionAndRecords = preparedQuery(
  (db, token: string, courseId: string) =>
    sql<RecordRow & { doc: unknown }>`with s as (${selectSessionUser(db, token)}) ${recordsSql(
      sql`"userId" = (select id from s) and "courseId" = ${courseId}`,
      sql`row_to_json(s) from s`,
    )}`,
  2,
);

/** A row a route reads beside the session and records (`LearnerStatement`). */
export interface BesideRow {
  /** The route's own kind of row. */
  tag: string;
  /** A timestamp, as an ISO 8601 string; rows of one tag come in its order, then `seq`'s. */
  at: string | null;
  seq: string | null;
  /** The row itself, as `json` (timestamps inside it are PostgreSQL's text, not yet ISO strings). */
  doc: unknown;
}

/**
 * The session statement with a route's own rows for the session user beside it (decision 0047): on
 * PostgreSQL one round trip reads the session, the records in the course and what the route needs
 * next. `beside(userId, courseId, key)` is a query (or union) of `tag, at, seq, doc` columns over
 * the route's own tables; `userId` is the session's user, or none when the session is unknown.
 */
export function learnerStatement(
  beside: (userId: RawBuilder<unknown>, courseId: string, key: string) => RawBuilder<unknown>,
) {
  return preparedQuery(
    (db, token: string, courseId: string, key: string) =>
      sql<RecordRow & { doc: unknown }>`with s as (${selectSessionUser(db, token)}) ${recordsSql(
        sql`"userId" = (select id from s) and "courseId" = ${courseId}`,
        sql`row_to_json(s) from s`,
        beside(sql`(select id from s)`, courseId, key),
      )}`,
    3,
  );
}
export type LearnerStatement = ReturnType<typeof learnerStatement>;

/** What `currentLearner` needs of a request (plugins/auth.ts). */
export interface SessionRequest {
  currentUser(): Promise<CurrentUser | null>;
  sessionToken(): string | null | undefined;
  adoptSession(row: SessionUserRow | undefined): Promise<CurrentUser | null>;
}

/**
 * The signed-in user (or null) and their records in one course (none for a visitor). On PostgreSQL
 * the two are one statement; on SQLite, whose reads are synchronous calls in this process, two.
 */
export async function currentLearner(
  request: SessionRequest,
  db: Kysely<DB>,
  courseId: string,
): Promise<{ user: CurrentUser | null; records: LearnerRecords }> {
  const token = engineOf(db) === "postgres" ? request.sessionToken() : undefined;
  if (token === undefined) {
    const user = await request.currentUser();
    return { user, records: user ? await loadLearnerRecords(db, user.id, courseId) : NO_RECORDS };
  }
  if (token === null) return { user: await request.adoptSession(undefined), records: NO_RECORDS };
  return learnerFromRows(request, courseId, await sessionAndRecords(db, token, courseId));
}

/**
 * `currentLearner`, and on PostgreSQL the route's own rows (`statement`, keyed by `key`) from the same
 * statement. `beside` is undefined when they were not read (SQLite, or no signed-in user): the route
 * reads them itself.
 */
export async function currentLearnerWith(
  request: SessionRequest,
  db: Kysely<DB>,
  courseId: string,
  statement: LearnerStatement,
  key: string,
): Promise<{ user: CurrentUser | null; records: LearnerRecords; beside?: BesideRow[] }> {
  const token = engineOf(db) === "postgres" ? request.sessionToken() : undefined;
  if (!token) return currentLearner(request, db, courseId);
  const rows = await statement(db, token, courseId, key);
  const learner = await learnerFromRows(request, courseId, rows);
  if (!learner.user) return learner;
  const beside: BesideRow[] = [];
  for (const r of rows) if (r.kind === "+") beside.push({ tag: r.item!, at: r.at, seq: r.seq, doc: r.doc });
  return { ...learner, beside };
}

async function learnerFromRows(request: SessionRequest, courseId: string, rows: (RecordRow & { doc: unknown })[]) {
  const session = rows.find((r) => r.kind === "s")?.doc as SessionUserRow | undefined;
  const user = await request.adoptSession(session ?? undefined);
  if (!user) return { user: null, records: NO_RECORDS };
  return { user, records: recordsByCourse(rows).get(courseId) ?? emptyRecords() };
}

const emptyRecords = (): LearnerRecords => ({
  ...NO_RECORDS,
  completedLessons: new Set(),
  quizStats: new Map(),
  attempts: [],
  practicalPasses: [],
});

async function loadRecords(db: Kysely<DB>, userId: string, courseId?: string): Promise<Map<string, LearnerRecords>> {
  return recordsByCourse(courseId ? await oneCourseRecords(db, userId, courseId) : await allCourseRecords(db, userId));
}

function recordsByCourse(rows: RecordRow[]): Map<string, LearnerRecords> {
  const byCourse = new Map<string, LearnerRecords>();
  const of = (id: string) => {
    let r = byCourse.get(id);
    if (!r) {
      r = emptyRecords();
      byCourse.set(id, r);
    }
    return r;
  };
  for (const row of rows) {
    if (row.kind === "s" || row.kind === "+") continue;
    const records = of(row.courseId);
    if (row.kind === "e") {
      records.enrolled = true;
      records.courseLine = Number(row.ver ?? 1);
    } else if (row.kind === "x") {
      records.practicalPassed = true;
      records.practicalPasses.push(Number(row.ver ?? 1));
    } else if (row.kind === "l") records.completedLessons.add(row.item!);
    else if (row.kind === "q") {
      // Grading stores the pass (learning/grading.ts); it is read here, never recomputed.
      const attempt = {
        item: row.item!,
        score: Number(row.num),
        passed: row.passed === true,
        version: Number(row.ver ?? 1),
      };
      records.attempts.push(attempt);
      addAttempt(records.quizStats, attempt);
    } else {
      records.progress = {
        id: row.item!,
        isCompleted: row.passed === true,
        completedAt: row.completedAt,
        createdAt: row.at!,
      };
    }
  }
  return byCourse;
}

function addAttempt(stats: Map<string, QuizStats>, attempt: LearnerRecords["attempts"][number]) {
  const prev = stats.get(attempt.item);
  stats.set(attempt.item, {
    score: attempt.score,
    bestScore: Math.max(prev?.bestScore ?? 0, attempt.score),
    attempts: (prev?.attempts ?? 0) + 1,
    passed: (prev?.passed ?? false) || attempt.passed,
  });
}

/**
 * The learner's records as `course`'s version counts them (decision 0055): attempts on a quiz, the
 * exam or the practical count only from the version since which that assessment is unchanged. Every
 * row stays stored; lesson completions count wherever the lesson (its id) still is.
 */
export function recordsOn(course: CatalogueCourse, records: LearnerRecords): LearnerRecords {
  const since = course.assessedSince;
  if (since.size === 0) return records;
  const counts = (item: string, version: number) => version >= (since.get(item) ?? 0);
  const dropped = records.attempts.some((a) => !counts(a.item, a.version));
  const practicalSince = since.get(PRACTICAL_KEY) ?? 0;
  const practicalPassed = records.practicalPasses.some((v) => v >= practicalSince);
  if (!dropped && practicalPassed === records.practicalPassed) return records;
  const quizStats = new Map<string, QuizStats>();
  const attempts = records.attempts.filter((a) => counts(a.item, a.version));
  for (const attempt of attempts) addAttempt(quizStats, attempt);
  return { ...records, quizStats, attempts, practicalPassed };
}

/**
 * The version of `course` the learner's line serves (the latest for visitors, new enrolments and
 * everyone after a minor publish), and their records as that version counts them.
 */
export async function servedCourse(
  catalogue: CourseCatalogue,
  course: CatalogueCourse,
  records: LearnerRecords,
): Promise<{ course: CatalogueCourse; records: LearnerRecords }> {
  const served = await catalogue.servedFor(course, records.courseLine);
  return { course: served, records: recordsOn(served, records) };
}

/** The version of `course` the user's enrolment serves, read with one small query (routes off the hot paths). */
export async function servedCourseFor(
  catalogue: CourseCatalogue,
  db: Kysely<DB>,
  userId: string,
  course: CatalogueCourse,
): Promise<CatalogueCourse> {
  const row = await db
    .selectFrom("enrollment")
    .select("courseLine")
    .where("userId", "=", userId)
    .where("courseId", "=", course.card.id)
    .executeTakeFirst();
  return catalogue.servedFor(course, row?.courseLine);
}

export interface CourseState {
  moduleStates: Map<string, ModuleState>;
  unlockedModules: Set<string>;
  completedModules: string[];
  allModulesComplete: boolean;
  /** The final exam opens once every module is complete. */
  examUnlocked: boolean;
  examPassed: boolean;
  /** The practical opens for submission once every module is complete. */
  practicalUnlocked: boolean;
  practicalPassed: boolean;
  /**
   * Every lesson completed, every quiz passed, the final exam (when the course has one) passed and the
   * practical passed when the certificate requires it.
   */
  courseComplete: boolean;
  /** What is still missing for completion, in words, e.g. "2 lessons", "the final exam". */
  missing: string[];
  percent: number;
  /** Index of the first module not yet complete, and of its first lesson not yet done. */
  currentModuleIndex: number;
  currentLessonIndex: number;
}

export function isModuleComplete(module: CatalogueCourse["modules"][number], records: LearnerRecords): boolean {
  if (module.quiz) return records.quizStats.get(module.id)?.passed ?? false;
  return module.lessons.every((l) => records.completedLessons.has(l.id));
}

/** Module states from the decisions page: module N+1 opens when module N is complete. */
export function computeCourseState(course: CatalogueCourse, records: LearnerRecords): CourseState {
  const moduleStates = new Map<string, ModuleState>();
  const unlockedModules = new Set<string>();
  const completedModules: string[] = [];
  let previousComplete = true;
  for (const [index, module] of course.modules.entries()) {
    const complete = records.enrolled && isModuleComplete(module, records);
    const unlocked = index === 0 || (records.enrolled && previousComplete);
    if (unlocked) unlockedModules.add(module.id);
    if (complete) completedModules.push(module.id);
    moduleStates.set(module.id, complete ? "complete" : unlocked ? "in-progress" : "locked");
    previousComplete = complete;
  }
  const lessonsDone = records.enrolled ? course.lessons.filter((l) => records.completedLessons.has(l.id)).length : 0;
  const quizzesNotPassed = course.modules.filter((m) => m.quiz && !(records.quizStats.get(m.id)?.passed ?? false));
  const quizzesPassed = records.enrolled ? course.quizCount - quizzesNotPassed.length : 0;
  const allModulesComplete = course.modules.length > 0 && completedModules.length === course.modules.length;
  const examPassed = records.enrolled && !!course.exam && (records.quizStats.get(FINAL_EXAM_ID)?.passed ?? false);
  const missing: string[] = [];
  const lessonsLeft = course.lessons.length - lessonsDone;
  if (lessonsLeft > 0) missing.push(`${lessonsLeft} lesson${lessonsLeft === 1 ? "" : "s"}`);
  for (const m of records.enrolled ? quizzesNotPassed : course.modules.filter((x) => x.quiz))
    missing.push(`the quiz of "${m.title}"`);
  if (course.exam && !examPassed) missing.push("the final exam");
  const practicalRequired = !!course.practical?.requiredForCertificate;
  const practicalPassed = records.enrolled && !!course.practical && records.practicalPassed;
  if (practicalRequired && !practicalPassed) missing.push("the practical assessment");
  const currentModuleIndex = Math.max(
    0,
    course.modules.findIndex((m) => moduleStates.get(m.id) !== "complete"),
  );
  const currentModule = course.modules[currentModuleIndex];
  const currentLessonIndex = Math.max(
    0,
    currentModule?.lessons.findIndex((l) => !records.completedLessons.has(l.id)) ?? 0,
  );
  return {
    moduleStates,
    unlockedModules,
    completedModules,
    allModulesComplete,
    examUnlocked: records.enrolled && !!course.exam && allModulesComplete,
    examPassed,
    practicalUnlocked: records.enrolled && !!course.practical && allModulesComplete,
    practicalPassed,
    courseComplete: records.enrolled && course.lessons.length > 0 && missing.length === 0,
    missing,
    percent: progressPercent(
      lessonsDone,
      course.lessons.length,
      quizzesPassed + (examPassed ? 1 : 0) + (practicalRequired && practicalPassed ? 1 : 0),
      course.quizCount + (course.exam ? 1 : 0) + (practicalRequired ? 1 : 0),
    ),
    currentModuleIndex,
    currentLessonIndex,
  };
}

/** The 409 message naming what is missing, e.g. "Complete 2 lessons and the final exam before ...". */
export function notCompleteMessage(before: string, missing: string[]): string {
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}` : missing[0];
  return `Complete ${list ?? "the course"} before ${before} (every quiz and the final exam need at least ${PASS_MARK}%).`;
}

/** Preview rule: the first lesson of the first module is open to anyone; the rest needs enrolment and an unlocked module. */
export function canReadLesson(
  course: CatalogueCourse,
  lessonId: string,
  records: LearnerRecords,
  state: CourseState,
): boolean {
  const first = course.modules[0]?.lessons[0];
  if (first?.id === lessonId) return true;
  const lesson = course.lessonsById.get(lessonId);
  return !!lesson && records.enrolled && state.unlockedModules.has(lesson.moduleId);
}

/** Preview rule: the first module's quiz is open to anyone; the rest needs enrolment and an unlocked module. */
export function canTakeQuiz(
  course: CatalogueCourse,
  moduleId: string,
  records: LearnerRecords,
  state: CourseState,
): boolean {
  if (course.modules[0]?.id === moduleId) return true;
  return records.enrolled && state.unlockedModules.has(moduleId);
}
