import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { MyLearningCourse, Progress, Quiz, QuizResult } from "#shared/schemas/learning.ts";
import type { DB } from "../../db/schema.ts";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../../errors.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { Catalogue, CatalogueCourse } from "../courses/course-catalogue.ts";
import { listEnrollments } from "../enrollments/enrollments.repository.ts";
import {
  canReadLesson,
  canTakeQuiz,
  computeCourseState,
  type LearnerRecords,
  loadAllLearnerRecords,
  loadLearnerRecords,
  NO_RECORDS,
} from "./learner-state.ts";
import { PASS_MARK, scorePercent } from "./progress-formula.ts";

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

async function ensureProgressRow(db: Kysely<DB> | Transaction<DB>, userId: string, courseId: string) {
  const now = new Date().toISOString();
  await db
    .insertInto("courseProgress")
    .values({ id: randomUUID(), userId, courseId, isCompleted: 0, completedAt: null, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(["userId", "courseId"]).doNothing())
    .execute();
}

async function enrolledRecords(db: Kysely<DB>, user: CurrentUser, course: CatalogueCourse): Promise<LearnerRecords> {
  const records = await loadLearnerRecords(db, user.id, course.card.id);
  if (!records.enrolled) throw forbidden(NOT_ENROLLED);
  return records;
}

export async function getProgress(db: Kysely<DB>, user: CurrentUser, course: CatalogueCourse): Promise<Progress> {
  return toProgress(course, user.id, await enrolledRecords(db, user, course));
}

/** Records a finished lesson. Repeating it changes nothing; parallel calls each write their own row. */
export async function completeLesson(db: Kysely<DB>, user: CurrentUser, course: CatalogueCourse, lessonId: string) {
  if (!course.lessonsById.has(lessonId)) throw notFound("Lesson not found.");
  const records = await enrolledRecords(db, user, course);
  const state = computeCourseState(course, records);
  if (!canReadLesson(course, lessonId, records, state))
    throw forbidden("This lesson is locked. Pass the previous module's quiz to unlock it.");
  // One transaction, so one commit (and one fsync on SQLite) per completion.
  await db.transaction().execute(async (trx) => {
    await ensureProgressRow(trx, user.id, course.card.id);
    await trx
      .insertInto("lessonCompletion")
      .values({ userId: user.id, courseId: course.card.id, lessonId, completedAt: new Date().toISOString() })
      .onConflict((oc) => oc.columns(["userId", "courseId", "lessonId"]).doNothing())
      .execute();
  });
  records.completedLessons.add(lessonId);
  return { completed: true as const, percent: computeCourseState(course, records).percent };
}

/** Marks the course complete, with the server's clock, only when every module is complete. */
export async function markCourseComplete(
  db: Kysely<DB>,
  user: CurrentUser,
  course: CatalogueCourse,
): Promise<Progress> {
  const records = await enrolledRecords(db, user, course);
  if (!computeCourseState(course, records).allModulesComplete) {
    throw conflict("Complete every module (pass each quiz with at least 80%) before finishing the course.");
  }
  await ensureProgressRow(db, user.id, course.card.id);
  const now = new Date().toISOString();
  await db
    .updateTable("courseProgress")
    .set({ isCompleted: 1, completedAt: now, updatedAt: now })
    .where("userId", "=", user.id)
    .where("courseId", "=", course.card.id)
    .where("isCompleted", "=", 0)
    .execute();
  return toProgress(course, user.id, await loadLearnerRecords(db, user.id, course.card.id));
}

async function quizAccess(db: Kysely<DB>, user: CurrentUser | null, course: CatalogueCourse, moduleId: string) {
  const module = course.modulesById.get(moduleId);
  if (!module?.quiz) throw notFound("Quiz not found.");
  const records = user ? await loadLearnerRecords(db, user.id, course.card.id) : NO_RECORDS;
  const state = computeCourseState(course, records);
  if (!canTakeQuiz(course, moduleId, records, state)) {
    if (!user) throw unauthorized("Sign in and enrol to take this quiz.");
    if (!records.enrolled) throw forbidden(NOT_ENROLLED);
    throw forbidden("This quiz is locked. Complete the previous module first.");
  }
  return { module, quiz: module.quiz, records };
}

/** The questions and options, never the answers. */
export async function getQuiz(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
): Promise<Quiz> {
  const { module, quiz, records } = await quizAccess(db, user, course, moduleId);
  const stats = records.enrolled ? records.quizStats.get(moduleId) : undefined;
  return {
    courseId: course.card.id,
    moduleId,
    moduleTitle: module.title,
    title: quiz.title,
    questions: quiz.questions.map((q) => ({
      id: q.id,
      question: q.question,
      options: q.options.map((o) => ({ id: o.id, text: o.text })),
    })),
    passMark: PASS_MARK,
    previous: stats
      ? { score: stats.score, bestScore: stats.bestScore, attempts: stats.attempts, passed: stats.passed }
      : null,
    recorded: records.enrolled,
    nextModuleId: course.modules[module.position + 1]?.id ?? null,
  };
}

/** Grades on the server. Enrolled learners' attempts are stored; a preview attempt is only graded. */
export async function gradeQuizAttempt(
  db: Kysely<DB>,
  user: CurrentUser | null,
  course: CatalogueCourse,
  moduleId: string,
  answers: Record<string, string>,
): Promise<QuizResult> {
  const { quiz, records } = await quizAccess(db, user, course, moduleId);
  const questionIds = new Set(quiz.questions.map((q) => q.id));
  for (const id of Object.keys(answers)) if (!questionIds.has(id)) throw badRequest(`Unknown question '${id}'.`);
  for (const q of quiz.questions) {
    const answer = answers[q.id];
    if (answer === undefined) throw badRequest("Answer every question before submitting.");
    if (!q.options.some((o) => o.id === answer))
      throw badRequest(`'${answer}' is not an option of question '${q.id}'.`);
  }
  const review = quiz.questions.map((q) => ({ q, correct: answers[q.id] === q.correctAnswer }));
  const correctCount = review.filter((r) => r.correct).length;
  const total = quiz.questions.length;
  const score = scorePercent(correctCount, total);
  const passed = score >= PASS_MARK;
  let bestScore: number | null = null;
  if (user && records.enrolled) {
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      await ensureProgressRow(trx, user.id, course.card.id);
      await trx
        .insertInto("quizAttempt")
        .values({
          id: randomUUID(),
          userId: user.id,
          courseId: course.card.id,
          moduleId,
          score,
          correctCount,
          total,
          passed: passed ? 1 : 0,
          answers: JSON.stringify(answers),
          createdAt: now,
        })
        .execute();
    });
    bestScore = Math.max(score, records.quizStats.get(moduleId)?.bestScore ?? 0);
  }
  return {
    score,
    correctCount,
    incorrectCount: total - correctCount,
    total,
    passed,
    passMark: PASS_MARK,
    recorded: !!user && records.enrolled,
    bestScore,
    review: review.map(({ q, correct }) =>
      passed
        ? { questionId: q.id, correct, correctAnswer: q.correctAnswer, explanation: q.explanation }
        : { questionId: q.id, correct },
    ),
  };
}

/** My Learning: every enrolled course with the same progress figure the course page shows. */
export async function getMyLearning(
  db: Kysely<DB>,
  user: CurrentUser,
  catalogue: Catalogue,
): Promise<MyLearningCourse[]> {
  const [enrollments, recordsByCourse] = await Promise.all([
    listEnrollments(db, user.id),
    loadAllLearnerRecords(db, user.id),
  ]);
  return enrollments.flatMap((e) => {
    const course = catalogue.byId.get(e.courseId);
    if (!course) return [];
    const records = recordsByCourse.get(e.courseId) ?? { ...NO_RECORDS, enrolled: true };
    const state = computeCourseState(course, records);
    return [
      {
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
      },
    ];
  });
}
