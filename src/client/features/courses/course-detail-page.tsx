import { Award, CheckCircle2, Circle, ClipboardCheck, FileCheck2, GraduationCap, Lock, PlayCircle } from "lucide-react";
import { lazy, Suspense, useRef } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Badge, Card, PageContainer, ProgressBar, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useIssueCertificate } from "#client/lib/certificates.ts";
import { useCourse } from "#client/lib/courses.ts";
import { usePurchasing } from "#client/lib/payments.ts";
import { PRACTICAL_STATE_TEXT, reviewTimeText, usePractical } from "#client/lib/practical.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK, PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import { formatLongDate, formatMinutes, formatPrice, formatStudyTime } from "#shared/format.ts";
import type { CourseDetail, ModuleState, ModuleSummary } from "#shared/schemas/courses.ts";
import { resumeStep } from "./course-outline.ts";

const stateBadge: Record<ModuleState, { label: string; className: string }> = {
  locked: { label: "Locked", className: "bg-slate-100 text-slate-700" },
  "in-progress": { label: "In Progress", className: "bg-blue-100 text-blue-800" },
  complete: { label: "Complete", className: "bg-green-100 text-green-800" },
};

export const MEDICAL_DISCLAIMER =
  "This course is for educational purposes only and is not medical advice. It does not qualify you to diagnose, treat or prescribe for any medical condition.";

const lessonRow = "flex items-center gap-3 px-3 py-3 sm:px-4";
/** Title, then duration or lock label on the right; the label goes under the title when both do not fit. */
const lessonText = "flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5";

const previewBadge = { label: "Free Preview", className: "bg-amber-100 text-amber-900" };

function ModuleCard({ course, module, index }: { course: CourseDetail; module: ModuleSummary; index: number }) {
  // Someone who has not bought the course has no progress to show: an open module is a preview.
  const badge = !course.enrolled && module.state !== "locked" ? previewBadge : stateBadge[module.state];
  return (
    <Card className="p-4 sm:p-5" data-testid={`module-${module.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-xs font-semibold tracking-wide text-muted uppercase">Module {index + 1}</p>
          <h3 className="text-lg font-semibold">{module.title}</h3>
        </div>
        <Badge className={badge.className}>
          {module.state === "locked" && <Lock size={12} aria-hidden="true" />}
          {badge.label}
        </Badge>
      </div>
      {module.description && <p className="mt-2 text-sm text-muted">{module.description}</p>}
      <ul className="mt-4 divide-y divide-line rounded-lg border border-line">
        {module.lessons.map((lesson, i) => (
          <li key={lesson.id}>
            {lesson.accessible ? (
              <Link to={paths.lesson(course.id, lesson.id)} className={`${lessonRow} hover:bg-brand-50`}>
                {lesson.completed ? (
                  <CheckCircle2 className="shrink-0 text-green-700" size={18} aria-label="Completed" />
                ) : (
                  <PlayCircle className="shrink-0 text-brand-700" size={18} aria-hidden="true" />
                )}
                <span className={lessonText}>
                  <span className="min-w-0">
                    {i + 1}. {lesson.title}
                  </span>
                  <span className="text-xs text-muted">{lesson.duration}</span>
                </span>
              </Link>
            ) : (
              <div className={`${lessonRow} text-slate-500`} data-testid="locked-lesson">
                <Lock className="shrink-0" size={18} aria-hidden="true" />
                <span className={lessonText}>
                  <span className="min-w-0">
                    {i + 1}. {lesson.title}
                    <span className="sr-only"> (locked)</span>
                  </span>
                  {course.enrolled ? (
                    <span className="text-xs">Locked</span>
                  ) : (
                    // On a phone the spec's long text would squeeze the title into a narrow column.
                    <span className="text-xs">
                      <span aria-hidden="true" className="sm:hidden">
                        Locked
                      </span>
                      <span className="sr-only sm:not-sr-only">Preview mode only - purchase to unlock</span>
                    </span>
                  )}
                </span>
              </div>
            )}
          </li>
        ))}
      </ul>
      {module.quiz && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 px-4 py-3">
          <div className="flex items-center gap-3">
            <ClipboardCheck className="text-brand-700" size={20} aria-hidden="true" />
            <div>
              <p className="font-medium">{module.quiz.title}</p>
              <p className="text-xs text-muted">
                {module.quiz.questionCount} questions · pass mark {PASS_MARK}%
                {module.quiz.bestScore !== null && ` · best score ${module.quiz.bestScore}%`}
              </p>
            </div>
          </div>
          {module.quiz.accessible ? (
            <Link
              to={paths.quiz(course.id, module.id)}
              className={buttonClasses(module.quiz.passed ? "secondary" : "primary", "sm")}
            >
              {module.quiz.passed ? "Review Quiz" : "Take Quiz"}
              <span className="sr-only">: {module.quiz.title}</span>
            </Link>
          ) : (
            <span className="flex items-center gap-1 text-xs text-slate-500">
              <Lock size={14} aria-hidden="true" />
              Locked
            </span>
          )}
        </div>
      )}
    </Card>
  );
}

/** The cumulative final exam, after the last module; it opens once every module is complete. */
function ExamCard({ course }: { course: CourseDetail }) {
  const exam = course.exam;
  if (!exam) return null;
  return (
    <Card className="p-5" data-testid="final-exam">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <GraduationCap className="text-brand-700" size={22} aria-hidden="true" />
          <div>
            <p className="text-xs font-semibold tracking-wide text-muted uppercase">Final exam</p>
            <h3 className="text-lg font-semibold">{exam.title}</h3>
            <p className="text-xs text-muted">
              {exam.questionCount} questions from every module · pass mark {PASS_MARK}%
              {exam.yourTimeLimitMinutes !== null && ` · ${formatMinutes(exam.yourTimeLimitMinutes)}`}
              {exam.yourTimeLimitMinutes !== exam.timeLimitMinutes && " with your extra time"}
              {exam.bestScore !== null && ` · best score ${exam.bestScore}%`}
            </p>
          </div>
        </div>
        {exam.accessible ? (
          <Link to={paths.exam(course.id)} className={buttonClasses(exam.passed ? "secondary" : "primary", "sm")}>
            {exam.passed ? "Exam Passed" : "Take Final Exam"}
          </Link>
        ) : (
          <span className="flex items-center gap-1 text-xs text-slate-500">
            <Lock size={14} aria-hidden="true" />
            Opens when every module is complete
          </span>
        )}
      </div>
    </Card>
  );
}

/**
 * The page's first action for an enrolled learner: straight to the lesson, quiz or exam that is due,
 * and once only the practical is left, to the practical ("Waiting for review" while an assessor has it).
 */
function ResumeLink({ course }: { course: CourseDetail }) {
  const step = resumeStep(course);
  const practical = course.practical;
  const practicalDue = !step && course.enrolled && !!practical?.accessible && !practical.passed;
  const { data } = usePractical(course.id, practicalDue);
  const target = step
    ? { href: step.item.href, label: `${step.first ? "Start" : "Resume"}: ${step.item.title}` }
    : practicalDue && practical
      ? {
          href: paths.practical(course.id),
          label: `${data?.state === "waiting" ? "Waiting for review" : "Resume"}: ${practical.title}`,
        }
      : null;
  if (!target) return null;
  return (
    <Link to={target.href} className={buttonClasses("light", "lg", "mt-5 max-w-full")} data-testid="resume">
      <PlayCircle size={20} aria-hidden="true" className="shrink-0" />
      <span className="min-w-0 break-words">{target.label}</span>
    </Link>
  );
}

/** The practical skills assessment: its state for an enrolled learner and the expected review time. */
function PracticalCard({ course }: { course: CourseDetail }) {
  const practical = course.practical;
  const { data } = usePractical(course.id, !!practical && course.enrolled);
  if (!practical) return null;
  return (
    <Card className="p-5" data-testid="practical">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <FileCheck2 className="text-brand-700" size={22} aria-hidden="true" />
          <div>
            <p className="text-xs font-semibold tracking-wide text-muted uppercase">Practical skills assessment</p>
            <h3 className="text-lg font-semibold">{practical.title}</h3>
            <p className="text-xs text-muted">
              Reviewed by an assessor against a rubric
              {practical.requiredForCertificate && " · required for the certificate"}
              {data && ` · review in ${reviewTimeText(data.expectedReviewDays)}`}
            </p>
            {data && (
              <p className="mt-1 text-sm font-medium" data-testid="practical-state">
                {PRACTICAL_STATE_TEXT[data.state]}
              </p>
            )}
          </div>
        </div>
        {course.enrolled && (practical.accessible || practical.passed) ? (
          <Link
            to={paths.practical(course.id)}
            className={buttonClasses(practical.passed ? "secondary" : "primary", "sm")}
          >
            {practical.passed ? "See Feedback" : "Open Practical"}
          </Link>
        ) : (
          <span className="flex items-center gap-1 text-xs text-slate-500">
            <Lock size={14} aria-hidden="true" />
            Opens when every module is complete
          </span>
        )}
      </div>
    </Card>
  );
}

function CertificationBanner({ course }: { course: CourseDetail }) {
  const toast = useToast();
  const navigate = useNavigate();
  const issue = useIssueCertificate(course.id, {
    onSuccess: () => {
      navigate(paths.courseCertificate(course.id));
    },
    onError: (error) =>
      toast({
        title: "Certificate Not Issued",
        description: refusal(error, error.message),
        variant: "destructive",
      }),
  });
  if (course.isCompleted) {
    return (
      <Card className="mt-6 flex flex-col gap-3 border-green-300 bg-green-50 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <Award className="text-green-700" aria-hidden="true" />
          <p className="font-semibold text-green-900">Certificate Available!</p>
        </div>
        <Link to={paths.courseCertificate(course.id)} className={buttonClasses("primary")}>
          View Certificate
        </Link>
      </Card>
    );
  }
  if (!course.courseComplete) return null;
  return (
    <Card className="mt-6 flex flex-col gap-3 border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-semibold text-amber-950">Ready for Certification!</p>
        <p className="text-sm text-amber-900">
          You have completed every lesson, quiz{course.exam ? ", the final exam" : ""}
          {course.practical?.requiredForCertificate ? " and the practical assessment" : ""}. Claim your certificate of
          completion.
        </p>
      </div>
      <Button onClick={() => issue.mutate()} pending={issue.isPending}>
        {issue.isPending ? "Issuing..." : "Get Certificate"}
      </Button>
    </Card>
  );
}

function CourseSkeleton() {
  return (
    <PageContainer aria-busy="true">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="mt-4 h-16" />
      <Skeleton className="mt-6 h-3" />
      <div className="mt-8 space-y-4">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-40" />
        ))}
      </div>
    </PageContainer>
  );
}

/** Only learners on an older version need it (its dialog is not in the page's first load). */
const NewerVersionNotice = lazy(() =>
  import("./newer-version-notice.tsx").then((m) => ({ default: m.NewerVersionNotice })),
);

export default function CourseDetailPage() {
  const { courseId = "" } = useParams();
  const { data: course, isPending, isError } = useCourse(courseId);
  const purchasing = usePurchasing();
  // Once shown, the notice stays mounted: after the move it holds the focused message saying so.
  const versionNotice = useRef(false);
  if (course?.move) versionNotice.current = true;
  useDocumentMeta(
    course
      ? { title: course.seo.title, description: course.seo.description, keywords: course.seo.keywords }
      : {
          title: isError ? `Course Not Found | ${BRAND_NAME}` : `Course | ${BRAND_NAME}`,
          description: isError ? "This course could not be found or is not available." : undefined,
        },
  );
  if (isPending) return <CourseSkeleton />;
  if (isError || !course) {
    return (
      <PageContainer className="py-20 text-center">
        <h1 className="text-3xl font-bold">Course Not Found</h1>
        <p className="mt-3 text-muted">This course could not be found or is not available.</p>
        <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Courses
        </Link>
      </PageContainer>
    );
  }

  return (
    <>
      <div className={`relative isolate bg-gradient-to-br ${course.gradient}`} data-testid="course-header">
        {/* A dark overlay keeps white text above 4.5:1 on every course gradient, light ones included. */}
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-slate-950/60" />
        <PageContainer className="text-white">
          <Link to={paths.home} className="text-sm text-white/90 underline-offset-2 hover:underline">
            ← Back to Courses
          </Link>
          <div className="mt-4 flex flex-wrap items-center gap-2">
            <LevelBadge level={course.level} />
            <span className="text-sm text-white">
              {course.comingSoon
                ? `${formatStudyTime(course)} · Coming soon`
                : `${formatStudyTime(course)} · ${course.moduleCount} modules · ${course.lessonCount} lessons`}
            </span>
          </div>
          <h1 className="mt-3 font-serif text-3xl font-bold sm:text-4xl">{course.title}</h1>
          <p className="mt-3 max-w-3xl text-white">{course.description}</p>
          <ResumeLink course={course} />
          {/* Only a review recorded for this version, by a named reviewer (decision 0058). */}
          {course.review && (
            <p className="mt-3 text-sm text-white" data-testid="course-review">
              Last reviewed {formatLongDate(course.review.reviewedOn)} by {course.review.reviewerName},{" "}
              {course.review.credential}
            </p>
          )}
          {course.update && (
            <p className="mt-2 text-sm text-white" data-testid="course-update">
              Updated on {formatLongDate(course.update.publishedAt)}: {course.update.note}
            </p>
          )}
        </PageContainer>
      </div>
      <PageContainer>
        {!course.enrolled && !course.comingSoon && (
          <Card
            className="flex flex-col gap-3 border-blue-200 bg-blue-50 p-5 sm:flex-row sm:items-center sm:justify-between"
            data-testid="preview-banner"
          >
            <div>
              <p className="font-semibold text-blue-950">Course Preview Mode</p>
              <p className="text-sm text-blue-900">
                You can read the first lesson and take the first module's quiz. Purchase the course to unlock
                everything.
              </p>
            </div>
            {course.marketplaceUrl ? (
              <a
                href={course.marketplaceUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses("primary")}
              >
                Purchase - {formatPrice(course.price)}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : purchasing ? (
              <Link to={paths.checkout(course.id)} className={buttonClasses("primary")}>
                Purchase - {formatPrice(course.price)}
              </Link>
            ) : (
              <p className="font-medium text-blue-950">{PURCHASING_UNAVAILABLE}</p>
            )}
          </Card>
        )}
        {course.comingSoon && (
          <Card className="border-orange-200 bg-orange-50 p-5">
            <p className="font-semibold text-orange-900">Coming Soon</p>
            <p className="text-sm text-orange-900">
              This course is currently being developed with comprehensive content
            </p>
          </Card>
        )}
        {course.titleNotice && (
          <section
            aria-labelledby="title-notice-heading"
            className="mt-6 rounded-2xl border border-line bg-white p-5 text-sm text-slate-800"
          >
            <h2 id="title-notice-heading" className="font-semibold text-ink">
              About this course's title
            </h2>
            <p className="mt-2">{course.titleNotice}</p>
          </section>
        )}
        {versionNotice.current && (
          <Suspense fallback={null}>
            <NewerVersionNotice course={course} />
          </Suspense>
        )}
        <CertificationBanner course={course} />

        {course.enrolled && !course.comingSoon && (
          <section className="mt-6" aria-labelledby="progress-heading">
            <div className="flex items-center justify-between">
              <h2 id="progress-heading" className="font-semibold">
                Your progress
              </h2>
              <span className="text-sm font-semibold">{course.percent}% complete</span>
            </div>
            <ProgressBar value={course.percent} label="Course progress" className="mt-2" />
            <Link
              to={`/questions/search?course=${course.id}`}
              className="mt-3 inline-block text-sm text-brand-800 underline"
            >
              Search learners' questions in this course
            </Link>
          </section>
        )}

        <section className="mt-8" aria-labelledby="outcomes-heading">
          <h2 id="outcomes-heading" className="text-xl font-bold">
            What you will learn
          </h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2">
            {course.learningOutcomes.map((o) => (
              <li key={o} className="flex gap-2 text-slate-700">
                <Circle size={8} className="mt-2 shrink-0 fill-brand-600 text-brand-600" aria-hidden="true" />
                {o}
              </li>
            ))}
          </ul>
        </section>

        {course.modules.length > 0 && (
          <section className="mt-10" aria-labelledby="modules-heading">
            <h2 id="modules-heading" className="text-xl font-bold">
              Course modules
            </h2>
            <div className="mt-4 space-y-4">
              {course.modules.map((m, i) => (
                <ModuleCard key={m.id} course={course} module={m} index={i} />
              ))}
              <ExamCard course={course} />
              <PracticalCard course={course} />
            </div>
          </section>
        )}
        <p className="mt-10 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
          <strong>Medical disclaimer:</strong> {MEDICAL_DISCLAIMER}
        </p>
      </PageContainer>
    </>
  );
}
