import { CheckCircle2, ChevronLeft, ChevronRight, Clock, Lock } from "lucide-react";
import { type ReactNode, useMemo, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, ProgressBar, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { useCourse } from "#client/lib/courses.ts";
import { LessonSlot, useLessonSlots } from "#client/lib/lesson-slots.tsx";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";
import { useCompleteLesson, useLesson } from "./api.ts";
import { OutlineDrawer, OutlineSidebar } from "./course-outline-nav.tsx";
import { wrapWideTables } from "./lesson-html.ts";
import { isPreviewEnd, PreviewEndCard } from "./preview-end-card.tsx";

function PreviewOnly({ courseId }: { courseId: string }) {
  return (
    <PageContainer className="max-w-2xl py-16 text-center">
      <Lock className="mx-auto text-brand-700" size={40} aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold">Preview Mode Only</h1>
      <p className="mt-3 text-muted">
        You can only access the first lesson in preview mode. Purchase the course to unlock all content.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={paths.checkout(courseId)} className={buttonClasses("primary")}>
          Purchase Course - $20
        </Link>
        <Link to={paths.course(courseId)} className={buttonClasses("secondary")}>
          Back to Course
        </Link>
      </div>
    </PageContainer>
  );
}

function Message({ title, text, courseId }: { title: string; text: string; courseId: string }) {
  return (
    <PageContainer className="max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-muted">{text}</p>
      <Link to={paths.course(courseId)} className={buttonClasses("primary", "md", "mt-6")}>
        Back to Course
      </Link>
    </PageContainer>
  );
}

/**
 * The lesson beside the course outline: a sidebar on its right on wide screens, a drawer button above
 * it on phones. Both
 * keep their space while the course loads, so nothing shifts when it arrives.
 */
function LessonFrame({
  course,
  currentKey,
  beside,
  children,
}: {
  course: CourseDetail | undefined;
  currentKey: string;
  /** Shown below the outline on wide screens (the lesson's Questions panel). */
  beside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <PageContainer className="max-w-6xl">
      {/* The outline comes after the lesson in reading and Tab order, so keyboard users meet the lesson first. */}
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="min-w-0 max-w-3xl">
          <div className="mb-4 lg:hidden">
            <OutlineDrawer course={course} currentKey={currentKey} />
          </div>
          {children}
        </div>
        <aside className="hidden lg:block">
          <div className="sticky top-20 max-h-[calc(100vh-6rem)] overflow-y-auto">
            {course ? <OutlineSidebar course={course} currentKey={currentKey} /> : <Skeleton className="h-96" />}
            {beside}
          </div>
        </aside>
      </div>
    </PageContainer>
  );
}

export default function LessonPage() {
  const { courseId = "", lessonId = "" } = useParams();
  const lesson = useLesson(courseId, lessonId);
  const course = useCourse(courseId);
  const navigate = useNavigate();
  const toast = useToast();
  const completeLesson = useCompleteLesson(courseId);
  const { Questions, CommonQuestions } = useLessonSlots();
  const [saving, setSaving] = useState(false);
  // Said once Mark complete has saved: the button's new name alone is not announced.
  const [completedNote, setCompletedNote] = useState("");
  const html = useMemo(() => (lesson.data ? wrapWideTables(lesson.data.html) : ""), [lesson.data]);
  useDocumentMeta({
    title: lesson.data ? `${lesson.data.title} | ${BRAND_NAME}` : `Lesson | ${BRAND_NAME}`,
    description: lesson.data
      ? `${lesson.data.title}: a lesson of ${course.data?.title ?? "a certification course"} at ${BRAND_NAME}.`
      : `A lesson of a ${BRAND_NAME} certification course.`,
  });

  // The page waits for the course too: its title (breadcrumb), the enrolled-only controls and the outline
  // would otherwise arrive after the lesson and push it down (layout shift on phones).
  if (lesson.isPending || (course.isPending && !lesson.isError)) {
    return (
      <LessonFrame course={course.data} currentKey={`lesson:${lessonId}`}>
        <div aria-busy="true">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="mt-3 h-9 w-2/3" />
          <Skeleton className="mt-2 h-5 w-20" />
          <Skeleton className="mt-5 h-6" />
          <div className="mt-8 space-y-3">
            {Array.from({ length: 12 }, (_, i) => (
              <Skeleton key={i} className="h-4" />
            ))}
          </div>
        </div>
      </LessonFrame>
    );
  }
  if (lesson.isError) {
    const status = lesson.error instanceof ApiError ? lesson.error.status : 0;
    if (status === 404)
      return (
        <Message courseId={courseId} title="Lesson Not Found" text="This lesson could not be found in the course." />
      );
    if ((status === 401 || status === 403) && !course.data?.enrolled) return <PreviewOnly courseId={courseId} />;
    if (status === 403)
      return (
        <Message
          courseId={courseId}
          title="Lesson Locked"
          text={`Pass the previous module's quiz with at least ${PASS_MARK}% to unlock this lesson.`}
        />
      );
    return <Message courseId={courseId} title="Lesson could not be loaded" text={lesson.error.message} />;
  }

  const data = lesson.data;
  const enrolled = course.data?.enrolled ?? false;
  const previewEnd = isPreviewEnd(course.data, data.id);

  const markComplete = async () => {
    if (!enrolled || data.completed) return true;
    setSaving(true);
    try {
      const { percent } = await completeLesson.mutateAsync(data.id);
      setCompletedNote(`Lesson marked complete. Course progress: ${percent}%.`);
      return true;
    } catch (error) {
      toast({
        title: "Progress Not Saved",
        description: refusal(error),
        variant: "destructive",
      });
      return false;
    } finally {
      setSaving(false);
    }
  };

  // At the end of a module, Next leads to its quiz until the quiz is passed.
  const module = course.data?.modules.find((m) => m.id === data.moduleId);
  const lastInModule = module?.lessons.at(-1)?.id === data.id;
  const quizNext =
    enrolled && lastInModule && module?.quiz && !module.quiz.passed ? paths.quiz(courseId, module.id) : null;

  const goNext = async () => {
    if (!(await markComplete())) return;
    navigate(quizNext ?? (data.nextLessonId ? paths.lesson(courseId, data.nextLessonId) : paths.course(courseId)));
  };

  // The Questions panel beside the lesson where the outline is on wide screens, below it on phones: one
  // copy each, CSS shows one; a link to a question (?question=) opens the one on screen.
  const questions = (
    <LessonSlot slot={Questions} courseId={courseId} lessonId={data.id} revealLabel="Questions about this lesson" />
  );
  return (
    <LessonFrame course={course.data} currentKey={`lesson:${data.id}`} beside={questions}>
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to={paths.course(courseId)} className="hover:underline">
              {course.data?.title ?? "Course"}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>{data.moduleTitle}</li>
          <li aria-hidden="true">/</li>
          <li aria-current="page">Lesson {data.numberInModule}</li>
        </ol>
      </nav>
      <h1 className="mt-3 font-serif text-3xl font-bold">{data.title}</h1>
      <p className="mt-2 flex items-center gap-1 text-sm text-muted">
        <Clock size={16} aria-hidden="true" />
        {data.duration}
      </p>
      <div className="mt-5">
        <div className="mb-1 flex justify-between text-xs text-muted">
          <span>
            Lesson {data.position + 1} of {data.totalLessons}
          </span>
          <span>{Math.round(((data.position + 1) / data.totalLessons) * 100)}%</span>
        </div>
        <ProgressBar value={((data.position + 1) / data.totalLessons) * 100} label="Position in course" />
      </div>
      <Card className="mt-8 p-6 sm:p-8">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: lesson HTML is sanitised with an allow-list on import. */}
        <article className="prose-lesson" dangerouslySetInnerHTML={{ __html: html }} />
        {data.review && (
          <p className="mt-8 border-t border-line pt-4 text-sm text-muted" data-testid="lesson-review">
            Last reviewed {formatLongDate(data.review.reviewedOn)} by {data.review.reviewerName},{" "}
            {data.review.credential}
          </p>
        )}
      </Card>
      <LessonSlot slot={CommonQuestions} courseId={courseId} lessonId={data.id} />
      <div className="lg:hidden">{questions}</div>
      {enrolled && (
        <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
          <p role="status" className="sr-only" data-testid="lesson-complete-status">
            {completedNote}
          </p>
          {/* One button in both states, so focus stays on it when the lesson becomes complete. */}
          <Button
            variant="secondary"
            aria-disabled={data.completed || saving}
            onClick={() => {
              if (!data.completed && !saving) void markComplete();
            }}
            className={data.completed ? "cursor-default border-green-700 text-green-800 hover:bg-white" : ""}
          >
            {data.completed ? (
              <>
                <CheckCircle2 size={18} aria-hidden="true" />
                Lesson completed
              </>
            ) : (
              "Mark complete"
            )}
          </Button>
        </div>
      )}
      {previewEnd && course.data && <PreviewEndCard course={course.data} />}
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        {data.previousLessonId ? (
          <Link to={paths.lesson(courseId, data.previousLessonId)} className={buttonClasses("secondary")}>
            <ChevronLeft size={18} aria-hidden="true" />
            Previous
          </Link>
        ) : (
          <span />
        )}
        {/* At the end of the preview the card above offers the way on; Next would only lead to a locked page. */}
        {!previewEnd && (
          <Button onClick={() => void goNext()} pending={saving} className="ml-auto">
            {data.nextLessonId || quizNext ? (
              <>
                Next
                <ChevronRight size={18} aria-hidden="true" />
              </>
            ) : (
              "Back to Course"
            )}
          </Button>
        )}
      </div>
    </LessonFrame>
  );
}
