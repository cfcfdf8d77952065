import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { MyLearningCourse, Progress } from "#shared/schemas/learning.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import { writeTransaction } from "../../db/fast-paths.ts";
import type { DB } from "../../db/schema.ts";
import { conflict, forbidden, notFound } from "../../errors.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse, CourseCatalogue } from "../courses/course-catalogue.ts";
import { listEnrollments } from "../enrollments/enrollments.repository.ts";
import {
  canReadLesson,
  computeCourseState,
  type LearnerRecords,
  loadAllLearnerRecords,
  loadLearnerRecords,
  NO_RECORDS,
  notCompleteMessage,
  recordsOn,
  servedCourse,
} from "./learner-state.ts";

export function toProgress(course: CatalogueCourse, userId: string, records: LearnerRecords): Progress {
  const state = computeCourseState(course, records);
  const quizScores: Progress["quizScores"] = {};
  for (const m of course.modules) {
    const stats = records.quizStats.get(m.id);
    if (stats)
      quizScores[m.id] = {
        score: stats.score,
        passed: stats.passed,
        attempts: stats.attempts,
        bestScore: stats.bestScore,
      };
  }
  return {
    id: records.progress?.id ?? "",
    userId,
    courseId: course.card.id,
    currentModuleIndex: state.currentModuleIndex,
    currentLessonIndex: state.currentLessonIndex,
    completedLessons: course.lessons.filter((l) => records.completedLessons.has(l.id)).map((l) => l.id),
    completedModules: state.completedModules,
    quizScores,
    isCompleted: records.progress?.isCompleted ?? false,
    completedAt: records.progress?.completedAt ?? null,
    createdAt: records.progress?.createdAt ?? null,
    percent: state.percent,
  };
}

export async function ensureProgressRow(
  db: Kysely<DB> | Transaction<DB>,
  userId: string,
  courseId: string,
  now = new Date().toISOString(),
) {
  await db
    .insertInto("courseProgress")
    .values({
      id: randomUUID(),
      userId,
      courseId,
      isCompleted: false,
      completedAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflict((oc) => oc.columns(["userId", "courseId"]).doNothing())
    .execute();
}

/** Marks the course complete at `now` unless it already is; the first completion time stays. */
export async function recordCourseCompleted(
  db: Kysely<DB> | Transaction<DB>,
  userId: string,
  courseId: string,
  now = new Date().toISOString(),
) {
  await ensureProgressRow(db, userId, courseId, now);
  await db
    .updateTable("courseProgress")
    .set({ isCompleted: true, completedAt: now, updatedAt: now })
    .where("userId", "=", userId)
    .where("courseId", "=", courseId)
    .where("isCompleted", "=", false)
    .execute();
}

/** `read`: the records already read in this request (`currentLearner`), else they are read here. */
export async function enrolledRecords(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
  read?: LearnerRecords,
): Promise<LearnerRecords> {
  const records = read ?? recordsOn(course, await loadLearnerRecords(db, user.id, course.card.id));
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  return records;
}

export async function getProgress(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
  read?: LearnerRecords,
): Promise<Progress> {
  return toProgress(course, user.id, await enrolledRecords(db, user, course, read));
}

/** Records a finished lesson. Repeating it changes nothing; parallel calls each write their own row. */
export async function completeLesson(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
  lessonId: string,
  read?: LearnerRecords,
) {
  if (!course.lessonsById.has(lessonId)) throw notFound("Lesson not found.");
  const records = await enrolledRecords(db, user, course, read);
  const state = computeCourseState(course, records);
  if (!canReadLesson(course, lessonId, records, state))
    throw forbidden("This lesson is locked. Pass the previous module's quiz to unlock it.");
  const completion = (trx: Kysely<DB> | Transaction<DB>) =>
    trx
      .insertInto("lessonCompletion")
      .values({
        userId: user.id,
        courseId: course.card.id,
        lessonId,
        completedAt: new Date().toISOString(),
        courseVersion: course.version,
      })
      .onConflict((oc) => oc.columns(["userId", "courseId", "lessonId"]).doNothing())
      .execute();
  // One transaction that first checks the account is not erased since its session was read
  // (decision 0051), then the progress row when missing, then the completion. On SQLite it shares
  // its commit (and fsync) with writes arriving together.
  await writeTransaction(db, async (trx) => {
    await requireLiveAccount(trx, user.id);
    if (!records.progress) await ensureProgressRow(trx, user.id, course.card.id);
    await completion(trx);
  });
  records.completedLessons.add(lessonId);
  return { completed: true as const, percent: computeCourseState(course, records).percent };
}

/** Marks the course complete, with the server's clock, only when every lesson, quiz and the final exam are done. */
export async function markCourseComplete(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Progress> {
  const records = await enrolledRecords(db, user, course);
  const { courseComplete, missing } = computeCourseState(course, records);
  if (!courseComplete) throw conflict(notCompleteMessage("finishing the course", missing));
  await recordCourseCompleted(db, user.id, course.card.id);
  return toProgress(course, user.id, recordsOn(course, await loadLearnerRecords(db, user.id, course.card.id)));
}

/**
 * My Learning: every enrolled course with the same progress figure the course page shows, counted on
 * the version the learner's line serves (a learner still on version 1 after a major publish sees
 * version 1's lessons, as their course page does).
 */
export async function getMyLearning(
  db: Kysely<DB>,
  user: CurrentUser,
  catalogue: CourseCatalogue,
): Promise<MyLearningCourse[]> {
  const [enrollments, recordsByCourse, current] = await Promise.all([
    listEnrollments(db, user.id),
    loadAllLearnerRecords(db, user.id),
    catalogue.get(),
  ]);
  const rows = await Promise.all(
    enrollments.map(async (e) => {
      const latest = current.byId.get(e.courseId);
      if (!latest) return null;
      const { course, records } = await servedCourse(
        catalogue,
        latest,
        recordsByCourse.get(e.courseId) ?? { ...NO_RECORDS, enrolled: true },
      );
      const state = computeCourseState(course, records);
      return {
        courseId: course.card.id,
        title: course.card.title,
        level: course.card.level,
        duration: course.card.duration,
        gradient: course.card.gradient,
        percent: state.percent,
        lessonsDone: course.lessons.filter((l) => records.completedLessons.has(l.id)).length,
        lessonCount: course.lessons.length,
        isCompleted: records.progress?.isCompleted ?? false,
        completedAt: records.progress?.completedAt ?? null,
        enrolledAt: e.createdAt,
      } satisfies MyLearningCourse;
    }),
  );
  return rows.filter((row) => row !== null);
}
