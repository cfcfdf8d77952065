import { paths } from "#client/config/paths.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";

export type OutlineState = "done" | "open" | "locked";

export interface OutlineItem {
  /** Unique within the course: `lesson:<id>`, `quiz:<moduleId>` or `exam`. */
  key: string;
  kind: "lesson" | "quiz" | "exam";
  title: string;
  href: string;
  state: OutlineState;
}

export interface OutlineSection {
  id: string;
  title: string;
  items: OutlineItem[];
}

const state = (done: boolean, accessible: boolean): OutlineState => (done ? "done" : accessible ? "open" : "locked");

/** The course in study order: each module's lessons then its quiz, and the final exam last. */
export function courseOutline(course: CourseDetail): OutlineSection[] {
  const sections: OutlineSection[] = course.modules.map((m, i) => ({
    id: m.id,
    title: `Module ${i + 1}: ${m.title}`,
    items: [
      ...m.lessons.map(
        (l): OutlineItem => ({
          key: `lesson:${l.id}`,
          kind: "lesson",
          title: l.title,
          href: paths.lesson(course.id, l.id),
          state: state(l.completed, l.accessible),
        }),
      ),
      ...(m.quiz
        ? [
            {
              key: `quiz:${m.id}`,
              kind: "quiz" as const,
              title: m.quiz.title,
              href: paths.quiz(course.id, m.id),
              state: state(m.quiz.passed, m.quiz.accessible),
            },
          ]
        : []),
    ],
  }));
  if (course.exam)
    sections.push({
      id: "final-exam",
      title: "Final exam",
      items: [
        {
          key: "exam",
          kind: "exam",
          title: course.exam.title,
          href: paths.exam(course.id),
          state: state(course.exam.passed, course.exam.accessible),
        },
      ],
    });
  return sections;
}

export interface ResumeStep {
  item: OutlineItem;
  /** Nothing done yet: the step starts the course rather than resuming it. */
  first: boolean;
}

/**
 * The one step an enrolled learner should take next: the first lesson, quiz or exam in study order
 * that is open and not done. Null when there is none (everything done, or the rest is locked).
 */
export function resumeStep(course: CourseDetail): ResumeStep | null {
  if (!course.enrolled || course.comingSoon) return null;
  const items = courseOutline(course).flatMap((s) => s.items);
  const item = items.find((i) => i.state === "open");
  if (!item) return null;
  return { item, first: !items.some((i) => i.state === "done") };
}
