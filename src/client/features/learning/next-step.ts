import { paths } from "#client/config/paths.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";
import type { Quiz } from "#shared/schemas/learning.ts";

export interface NextStep {
  href: string;
  label: "Continue to Next Module" | "Continue to Final Exam" | "Back to My Certificates";
  /** What a pass says, when not the final exam's words. */
  passedText?: string;
}

/**
 * Where a passed module quiz leads on: the next module's first lesson, else the final exam when the
 * course has one. After the last module of a course without an exam there is no step on; the result
 * then offers only "Back to Course".
 */
export function nextStepAfterQuiz(course: CourseDetail | undefined, quiz: Pick<Quiz, "nextModuleId">): NextStep | null {
  if (!course) return null;
  const next = course.modules.find((m) => m.id === quiz.nextModuleId);
  if (next?.lessons[0]) return { href: paths.lesson(course.id, next.lessons[0].id), label: "Continue to Next Module" };
  if (course.exam) return { href: paths.exam(course.id), label: "Continue to Final Exam" };
  return null;
}
