import type { Kysely } from "kysely";
import type { CourseDetail, Lesson, MoveToLatest } from "#shared/schemas/courses.ts";
import { writeTransaction } from "../../db/fast-paths.ts";
import type { DB } from "../../db/schema.ts";
import { forbidden, notFound, unauthorized } from "../../errors.ts";
import { NOT_ENROLLED } from "../courses/course-access.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { moveEnrollmentToLine } from "../enrollments/enrollments.repository.ts";
import {
  canReadLesson,
  canTakeQuiz,
  computeCourseState,
  FINAL_EXAM_ID,
  type LearnerRecords,
  NO_RECORDS,
  recordsOn,
} from "../progress/learner-state.ts";

/**
 * What moving from `served` (the learner's version) to `latest` keeps and what it asks again
 * (decision 0055): a completed lesson carries over where its id is in the latest version; a passed
 * quiz, the exam and the practical where their assessment did not change since the attempt.
 * `records` are the learner's rows, uncounted (the route's read).
 */
export function moveSummary(served: CatalogueCourse, latest: CatalogueCourse, records: LearnerRecords) {
  if (!records.enrolled || served.version >= latest.version) return null;
  const now = recordsOn(served, records);
  const after = recordsOn(latest, records);
  const keeps: string[] = [];
  const redo: string[] = [];
  for (const lesson of latest.lessons)
    if (now.completedLessons.has(lesson.id) && served.lessonsById.has(lesson.id))
      keeps.push(`Lesson "${lesson.title}"`);
  for (const module of latest.modules) {
    if (!module.quiz || !now.quizStats.get(module.id)?.passed) continue;
    const label = `The quiz of "${module.title}"`;
    (after.quizStats.get(module.id)?.passed ? keeps : redo).push(label);
  }
  if (latest.exam && now.quizStats.get(FINAL_EXAM_ID)?.passed)
    (after.quizStats.get(FINAL_EXAM_ID)?.passed ? keeps : redo).push("The final exam");
  if (latest.practical && now.practicalPassed) (after.practicalPassed ? keeps : redo).push("The practical assessment");
  const newLessons = latest.lessons.filter((l) => !served.lessonsById.has(l.id)).map((l) => l.title);
  return { keeps, redo, newLessons };
}

/** The course page: structure and the caller's state. Never a lesson body or a correct answer. */
export function toCourseDetail(
  course: CatalogueCourse,
  records: LearnerRecords = NO_RECORDS,
  move: CourseDetail["move"] = null,
  /** The reader's exam accommodation; 1 for none (and for a visitor). */
  timeMultiplier = 1,
): CourseDetail {
  const state = computeCourseState(course, records);
  return {
    ...course.card,
    learningOutcomes: course.learningOutcomes,
    seo: course.seo,
    enrolled: records.enrolled,
    percent: state.percent,
    allModulesComplete: state.allModulesComplete,
    exam: course.exam
      ? {
          title: course.exam.title,
          questionCount: course.exam.draw,
          timeLimitMinutes: course.exam.timeLimitMinutes,
          yourTimeLimitMinutes:
            course.exam.timeLimitMinutes === null ? null : course.exam.timeLimitMinutes * timeMultiplier,
          accessible: state.examUnlocked,
          bestScore: records.enrolled ? (records.quizStats.get(FINAL_EXAM_ID)?.bestScore ?? null) : null,
          passed: state.examPassed,
        }
      : null,
    practical: course.practical
      ? {
          title: course.practical.title,
          requiredForCertificate: course.practical.requiredForCertificate,
          accessible: state.practicalUnlocked,
          passed: state.practicalPassed,
        }
      : null,
    courseComplete: state.courseComplete,
    missing: records.enrolled ? state.missing : [],
    isCompleted: records.progress?.isCompleted ?? false,
    review: course.review,
    titleNotice: course.titleNotice ?? null,
    version: course.version,
    update: course.update,
    latestVersion: course.latestVersion,
    newer: course.newer,
    move,
    modules: course.modules.map((m) => {
      const stats = records.quizStats.get(m.id);
      return {
        id: m.id,
        title: m.title,
        description: m.description,
        state: state.moduleStates.get(m.id) ?? "locked",
        lessons: m.lessons.map((l) => ({
          id: l.id,
          title: l.title,
          duration: l.duration,
          accessible: canReadLesson(course, l.id, records, state),
          completed: records.enrolled && records.completedLessons.has(l.id),
        })),
        quiz: m.quiz
          ? {
              title: m.quiz.title,
              questionCount: m.quiz.draw,
              accessible: canTakeQuiz(course, m.id, records, state),
              bestScore: records.enrolled && stats ? stats.bestScore : null,
              passed: records.enrolled && !!stats?.passed,
            }
          : null,
      };
    }),
  };
}

/** A lesson body, after the preview and unlock rules. */
export function readLesson(
  course: CatalogueCourse,
  lessonId: string,
  records: LearnerRecords,
  signedIn: boolean,
): Lesson {
  const lesson = course.lessonsById.get(lessonId);
  if (!lesson) throw notFound("Lesson not found.");
  const state = computeCourseState(course, records);
  if (!canReadLesson(course, lessonId, records, state)) {
    if (!signedIn) throw unauthorized("Sign in and enrol to read this lesson.");
    if (!records.enrolled)
      throw forbidden(
        "You can only access the first lesson in preview mode. Purchase the course to unlock all content.",
      );
    throw forbidden("This lesson is locked. Pass the previous module's quiz to unlock it.");
  }
  const module = course.modulesById.get(lesson.moduleId)!;
  const previous = course.lessons[lesson.position - 1];
  const next = course.lessons[lesson.position + 1];
  return {
    id: lesson.id,
    courseId: course.card.id,
    moduleId: lesson.moduleId,
    moduleTitle: module.title,
    numberInModule: lesson.numberInModule,
    position: lesson.position,
    totalLessons: course.lessons.length,
    title: lesson.title,
    duration: lesson.duration,
    html: lesson.html,
    previousLessonId: previous?.id ?? null,
    nextLessonId: next?.id ?? null,
    completed: records.enrolled && records.completedLessons.has(lesson.id),
    review: course.review,
  };
}

/**
 * Moves the learner to the course's latest version line (decision 0055): nothing recorded is removed,
 * and what carries over is what the latest version counts (`recordsOn`). Repeating it changes nothing.
 */
export async function moveToLatest(
  db: Kysely<DB>,
  userId: string,
  served: CatalogueCourse,
  latest: CatalogueCourse,
): Promise<MoveToLatest> {
  const moved = served.line !== latest.line;
  const found = await writeTransaction(db, (trx) =>
    moveEnrollmentToLine(trx, { userId, courseId: latest.card.id, line: latest.line }),
  );
  if (!found) throw forbidden(NOT_ENROLLED);
  return { version: latest.version, latestVersion: latest.version, moved };
}
