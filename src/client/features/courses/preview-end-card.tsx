import { Award, BookOpen, ClipboardCheck, GraduationCap, Lock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { paths } from "#client/config/paths.ts";
import { usePurchasing } from "#client/lib/payments.ts";
import { PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";

/** Whole dollars without cents, as the spec's preview purchase button reads ('Purchase Course - $20'). */
const buttonPrice = (cents: number) => `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** True when a visitor (or a learner who has not bought the course) has nothing further to open after this lesson. */
export function isPreviewEnd(course: CourseDetail | undefined, lessonId: string): boolean {
  if (!course || course.enrolled || course.comingSoon) return false;
  const lessons = course.modules.flatMap((m) => m.lessons);
  const next = lessons[lessons.findIndex((l) => l.id === lessonId) + 1];
  return !next?.accessible;
}

function Unlock({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-start gap-2">
      <span className="mt-0.5 shrink-0 text-brand-700">{icon}</span>
      <span>{children}</span>
    </li>
  );
}

/**
 * Shown under the last lesson a visitor may read: what the preview covered, what buying unlocks and
 * the way to buy, in place of a Next button that would only lead to the 'Preview Mode Only' page.
 */
export function PreviewEndCard({ course }: { course: CourseDetail }) {
  const purchasing = usePurchasing();
  const lessons = course.modules.flatMap((m) => m.lessons);
  const seen = lessons.filter((l) => l.accessible).length;
  const quizzes = course.modules.filter((m) => m.quiz).length;
  const freeQuiz = course.modules.find((m) => m.quiz?.accessible);
  const label = `Purchase Course - ${buttonPrice(course.price)}`;
  return (
    <section
      aria-labelledby="preview-end-heading"
      className="mt-8 rounded-2xl border border-brand-600 bg-brand-50 p-6 sm:p-8"
      data-testid="preview-end"
    >
      <p className="flex items-center gap-2 text-sm font-semibold text-brand-800">
        <Lock size={16} aria-hidden="true" />
        End of the free preview
      </p>
      <h2 id="preview-end-heading" className="mt-2 text-2xl font-bold text-ink">
        Keep going with {course.title}
      </h2>
      <p className="mt-3 text-slate-800">
        You have read {plural(seen, "free lesson")} of {course.lessonCount}. Purchase the course to unlock:
      </p>
      <ul className="mt-3 space-y-2 text-slate-800">
        <Unlock icon={<BookOpen size={18} aria-hidden="true" />}>
          All {plural(course.lessonCount, "lesson")} in {plural(course.moduleCount, "module")}
        </Unlock>
        {quizzes > 0 && (
          <Unlock icon={<ClipboardCheck size={18} aria-hidden="true" />}>
            {plural(quizzes, "module quiz", "module quizzes")}, with your progress saved
          </Unlock>
        )}
        {course.exam && <Unlock icon={<GraduationCap size={18} aria-hidden="true" />}>The final exam</Unlock>}
        <Unlock icon={<Award size={18} aria-hidden="true" />}>A certificate of completion anyone can verify</Unlock>
      </ul>
      <p className="mt-3 text-sm text-slate-700">One payment, lifetime access.</p>
      <div className="mt-6 flex flex-wrap gap-3">
        {course.marketplaceUrl ? (
          <ExternalLink href={course.marketplaceUrl} className={buttonClasses("primary")}>
            {label}
          </ExternalLink>
        ) : purchasing ? (
          <Link to={paths.checkout(course.id)} className={buttonClasses("primary")}>
            {label}
          </Link>
        ) : (
          <p className="font-medium text-ink">{PURCHASING_UNAVAILABLE}</p>
        )}
        {freeQuiz && (
          <Link to={paths.quiz(course.id, freeQuiz.id)} className={buttonClasses("secondary")}>
            Try the free quiz<span className="sr-only">: {freeQuiz.quiz?.title}</span>
          </Link>
        )}
        <Link to={paths.course(course.id)} className={buttonClasses("secondary")}>
          Back to Course
        </Link>
      </div>
    </section>
  );
}
