import { createHash } from "node:crypto";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../../db/schema.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { FINAL_EXAM_ID } from "../progress/learner-state.ts";

/**
 * The course funnel's milestones per learner and course (docs/decisions/0045): whether a lesson was
 * completed, the final exam passed and which modules were passed, computed from the raw rows by one
 * statement (`milestonesFromRows`) that both the rollup job (into `learnerMilestone`) and the funnel
 * (for the learners whose row may be stale) use. Rows depend only on lesson completions and graded
 * attempts; everything else the funnel shows (the cohort, practical, certificate, idle) is read live.
 */

/**
 * A write commits, and the instances' clocks agree, within this of the time the write is stamped with:
 * a learner with activity stamped after the fold's time less this is recomputed from the raw rows.
 */
export const FOLD_MARGIN_MS = 3_600_000;

const isoOf = (ms: number) => new Date(ms).toISOString();

/** The modules the funnel has a step for: those with a quiz or at least one lesson. */
export const funnelModules = (course: CatalogueCourse) => course.modules.filter((m) => m.quiz || m.lessons.length > 0);

const shapes = new WeakMap<CatalogueCourse, string>();
/**
 * What "module passed" depends on in the catalogue: the modules, which have a quiz, and their lessons.
 * Rows computed against another shape (the content was imported again) are not read.
 */
export function milestoneShape(course: CatalogueCourse): string {
  let shape = shapes.get(course);
  if (!shape) {
    const modules = course.modules.map((m) => [m.id, !!m.quiz, m.lessons.map((l) => l.id)]);
    shape = createHash("sha256").update(JSON.stringify(modules)).digest("base64url");
    shapes.set(course, shape);
  }
  return shape;
}

/** Learners with a lesson completion or a graded attempt in the course stamped at or after `since` (null: ever). */
export const activeInCourseSince = (courseId: string, since: string | null) => sql`
  select "userId" from "lessonCompletion" where "courseId" = ${courseId}${since === null ? sql`` : sql` and "completedAt" >= ${since}`}
  union
  select "userId" from "quizAttempt" where "courseId" = ${courseId}${since === null ? sql`` : sql` and "createdAt" >= ${since}`}`;

/**
 * A module is passed when its quiz has a passing attempt, or (a module without a quiz) when every one
 * of its lessons is complete. One row per learner of `learners` and module passed.
 */
function passedModules(course: CatalogueCourse) {
  const quizModules = course.modules.filter((m) => m.quiz).map((m) => m.id);
  const plain = course.modules.filter((m) => !m.quiz && m.lessons.length > 0);
  const branches = [];
  if (quizModules.length > 0)
    branches.push(sql`
      select distinct q."userId", q."moduleId" from learners c cross join "quizAttempt" q
       where q."userId" = c."userId" and q."courseId" = ${course.card.id} and q.passed = 1
         and q."moduleId" in (${sql.join(quizModules)})`);
  if (plain.length > 0) {
    const lessonCount = sql`case l."moduleId" ${sql.join(
      plain.map((m) => sql`when ${m.id} then ${sql.lit(m.lessons.length)}`),
      sql` `,
    )} end`;
    branches.push(sql`
      select lc."userId", l."moduleId" from learners c cross join "lessonCompletion" lc
        join lesson l on l."courseId" = lc."courseId" and l.id = lc."lessonId"
       where lc."userId" = c."userId" and lc."courseId" = ${course.card.id} and l."moduleId" in (${sql.join(plain.map((m) => m.id))})
       group by lc."userId", l."moduleId" having count(*) >= ${lessonCount}`);
  }
  return branches.length > 0
    ? sql.join(branches, sql` union `)
    : sql`select null as "userId", null as "moduleId" where 1 = 0`;
}

/**
 * Per learner of `learners` (a statement selecting distinct "userId" and an "idle" flag), from the raw
 * rows: started (a lesson completed), "examPassed", idle, and p0, p1... one flag per funnelModules(course).
 */
export function milestonesFromRows(course: CatalogueCourse, learners: RawBuilder<unknown>) {
  const courseId = course.card.id;
  const flags = funnelModules(course).map(
    (m, i) => sql`, max(case when p."moduleId" = ${m.id} then 1 else 0 end) as ${sql.ref(`p${i}`)}`,
  );
  return sql`
    with learners as materialized (${learners}), passed as materialized (${passedModules(course)})
    select l."userId", l.idle,
      case when exists (select 1 from "lessonCompletion" x where x."userId" = l."userId"
        and x."courseId" = ${courseId}) then 1 else 0 end as started,
      case when exists (select 1 from "quizAttempt" q where q."userId" = l."userId" and q."courseId" = ${courseId}
        and q."moduleId" = ${FINAL_EXAM_ID} and q.passed = 1) then 1 else 0 end as "examPassed"
      ${sql.join(flags, sql` `)}
    from learners l left join passed p on p."userId" = l."userId"
    group by l."userId", l.idle`;
}

/** The stored form of the modules passed: ",alpha,beta," (","for none), from the flags p0, p1... of `m`. */
const modulesPassedText = (course: CatalogueCourse) =>
  sql.join(
    [
      sql`','`,
      ...funnelModules(course).map(
        (mod, i) => sql`case when m.${sql.ref(`p${i}`)} = 1 then ${`${mod.id},`} else '' end`,
      ),
    ],
    sql` || `,
  );

/** The modules passed as flags in funnelModules(course) order, from the stored text. */
export function passedFlags(course: CatalogueCourse, text: string): boolean[] {
  const passed = new Set(text.split(","));
  return funnelModules(course).map((m) => passed.has(m.id));
}

/**
 * When the funnel may read the course's stored milestones: null when they were never folded or were
 * computed against another shape of the course; otherwise the time after which a learner's activity
 * may be missing from their row.
 */
export async function milestonesSince(db: Kysely<DB>, course: CatalogueCourse): Promise<string | null> {
  const mark = await db
    .selectFrom("learnerMilestoneCourse")
    .select(["shape", "foldedUntil"])
    .where("courseId", "=", course.card.id)
    .executeTakeFirst();
  if (!mark || mark.shape !== milestoneShape(course)) return null;
  return isoOf(Date.parse(mark.foldedUntil) - FOLD_MARGIN_MS);
}

const CHUNK = 500;

function insertMilestones(course: CatalogueCourse, ids: string[]) {
  return sql`
    insert into "learnerMilestone" ("courseId", "userId", started, "examPassed", "modulesPassed")
    select ${course.card.id}, m."userId", m.started, m."examPassed", ${modulesPassedText(course)}
      from (${milestonesFromRows(course, sql`select id as "userId", 0 as idle from "user" where id in (${sql.join(ids)})`)}) m`;
}

/**
 * One course's turn of the fold: recomputes the rows of the learners active in the course since its last
 * turn (less the margin), in one transaction that also moves the course's mark, so the funnel never reads
 * rows and a mark that disagree. A course with no rows yet, or whose shape changed, is rebuilt instead.
 */
async function foldCourse(db: Kysely<DB>, course: CatalogueCourse, startedAt: string) {
  const courseId = course.card.id;
  const shape = milestoneShape(course);
  const rebuilt = await db.transaction().execute(async (trx) => {
    const since = await milestonesSince(trx, course);
    if (since === null) return false;
    const stale = (await sql<{ userId: string }>`${activeInCourseSince(courseId, since)}`.execute(trx)).rows.map(
      (r) => r.userId,
    );
    for (let i = 0; i < stale.length; i += CHUNK) {
      const ids = stale.slice(i, i + CHUNK);
      await trx.deleteFrom("learnerMilestone").where("courseId", "=", courseId).where("userId", "in", ids).execute();
      await insertMilestones(course, ids).execute(trx);
    }
    await trx
      .updateTable("learnerMilestoneCourse")
      .set({ foldedUntil: startedAt })
      .where("courseId", "=", courseId)
      .execute();
    return true;
  });
  if (!rebuilt) await rebuildCourse(db, course, shape, startedAt);
}

/**
 * Every learner of the course, in chunks of their own transactions with a pause between them: on SQLite
 * the job runs in the web process and each statement holds it, so one statement over a whole cohort
 * (seconds at 100,000 learners) would stall every request. The mark goes first and comes back last:
 * meanwhile the funnel reads the course from the raw rows.
 */
async function rebuildCourse(db: Kysely<DB>, course: CatalogueCourse, shape: string, startedAt: string) {
  const courseId = course.card.id;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("learnerMilestoneCourse").where("courseId", "=", courseId).execute();
    await trx.deleteFrom("learnerMilestone").where("courseId", "=", courseId).execute();
  });
  const everyone = (await sql<{ userId: string }>`${activeInCourseSince(courseId, null)}`.execute(db)).rows.map(
    (r) => r.userId,
  );
  for (let i = 0; i < everyone.length; i += CHUNK) {
    await insertMilestones(course, everyone.slice(i, i + CHUNK)).execute(db);
    await new Promise((next) => setImmediate(next));
  }
  await db.insertInto("learnerMilestoneCourse").values({ courseId, shape, foldedUntil: startedAt }).execute();
}

/**
 * The rollup job's milestone step: each course of the catalogue in turn; the rows of courses the
 * catalogue no longer has are dropped.
 */
export async function foldMilestones(db: Kysely<DB>, catalogue: Catalogue, now = new Date()): Promise<void> {
  // The turn's time, before anything is read: activity stamped after it, less the margin, is read live.
  const startedAt = now.toISOString();
  const ids = new Set(catalogue.courses.map((c) => c.card.id));
  // A course's rows are written with its mark, so the marks name every course that has rows.
  const marks = await db.selectFrom("learnerMilestoneCourse").select("courseId").execute();
  const gone = marks.map((m) => m.courseId).filter((id) => !ids.has(id));
  if (gone.length > 0)
    await db.transaction().execute(async (trx) => {
      for (const table of ["learnerMilestoneCourse", "learnerMilestone"] as const)
        await trx.deleteFrom(table).where("courseId", "in", gone).execute();
    });
  for (const course of catalogue.courses) await foldCourse(db, course, startedAt);
}
