import { Award, BookOpen, CheckCircle2, Clock, PlayCircle } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Card, PageContainer, ProgressBar, Skeleton, StatCard } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { MyLearningCourse } from "#shared/schemas/learning.ts";
import { useMyLearning } from "./api.ts";

function InProgressCard({ c }: { c: MyLearningCourse }) {
  return (
    <Card className="flex flex-col overflow-hidden" data-testid={`in-progress-${c.courseId}`}>
      <div className={`h-2 bg-gradient-to-r ${c.gradient}`} />
      <div className="flex flex-1 flex-col p-5">
        <LevelBadge level={c.level} />
        <h3 className="mt-2 text-lg font-semibold">{c.title}</h3>
        <div className="mt-3 flex justify-between text-sm">
          <span className="text-muted">Progress</span>
          <span className="font-semibold">{c.percent}%</span>
        </div>
        <ProgressBar value={c.percent} label={`${c.title} progress`} className="mt-1" />
        <p className="mt-3 flex items-center justify-between text-sm text-muted">
          <span>
            {c.lessonsDone} of {c.lessonCount} lessons
          </span>
          <span className="flex items-center gap-1">
            <Clock size={14} aria-hidden="true" />
            {c.duration}
          </span>
        </p>
        <Link to={paths.course(c.courseId)} className={buttonClasses("primary", "md", "mt-4")}>
          Continue Learning<span className="sr-only">: {c.title}</span>
        </Link>
      </div>
    </Card>
  );
}

function CompletedCard({ c }: { c: MyLearningCourse }) {
  return (
    <Card className="flex flex-col p-5" data-testid={`completed-${c.courseId}`}>
      <div className="flex items-center gap-2 text-green-800">
        <CheckCircle2 size={18} aria-hidden="true" />
        <span className="text-sm font-semibold">Completed {formatLongDate(c.completedAt)}</span>
      </div>
      <h3 className="mt-2 text-lg font-semibold">{c.title}</h3>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={paths.course(c.courseId)} className={buttonClasses("secondary", "sm")}>
          Review Course<span className="sr-only">: {c.title}</span>
        </Link>
        <Link to={paths.courseCertificate(c.courseId)} className={buttonClasses("primary", "sm")}>
          View Certificate<span className="sr-only">: {c.title}</span>
        </Link>
      </div>
    </Card>
  );
}

export default function MyLearningPage() {
  useDocumentMeta({
    title: `My Learning | ${BRAND_NAME}`,
    description: `Your ${BRAND_NAME} courses: progress, the next lesson to take and your certificates.`,
  });
  const { data, isPending, isError, error } = useMyLearning();
  if (isPending)
    return (
      <PageContainer aria-busy="true">
        <Skeleton className="h-9 w-48" />
        <div className="mt-6 grid gap-4 sm:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
      </PageContainer>
    );
  if (isError)
    return (
      <PageContainer>
        <Card className="border-red-200 bg-red-50 p-6" role="alert">
          <h1 className="font-semibold text-red-900">My Learning could not be loaded</h1>
          <p className="text-red-800">{error.message}</p>
        </Card>
      </PageContainer>
    );
  const inProgress = data.filter((c) => !c.isCompleted);
  const completed = data.filter((c) => c.isCompleted);
  return (
    <PageContainer>
      <h1 className="font-serif text-3xl font-bold">My Learning</h1>
      <div className="mt-6 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Enrolled" value={data.length} icon={<BookOpen aria-hidden="true" />} />
        <StatCard label="In Progress" value={inProgress.length} icon={<PlayCircle aria-hidden="true" />} />
        <StatCard label="Completed" value={completed.length} icon={<Award aria-hidden="true" />} />
      </div>
      {data.length === 0 ? (
        <Card className="mt-8 p-10 text-center">
          <h2 className="text-xl font-semibold">No courses enrolled yet</h2>
          <p className="mt-2 text-muted">Browse our certification programs and start learning today.</p>
          <Link to={paths.home} className={buttonClasses("primary", "md", "mt-5")}>
            Browse Courses
          </Link>
        </Card>
      ) : (
        <>
          {inProgress.length > 0 && (
            <section className="mt-10" aria-labelledby="continue-heading">
              <h2 id="continue-heading" className="text-xl font-bold">
                Continue Learning
              </h2>
              <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {inProgress.map((c) => (
                  <InProgressCard key={c.courseId} c={c} />
                ))}
              </div>
            </section>
          )}
          {completed.length > 0 && (
            <section className="mt-10" aria-labelledby="completed-heading">
              <h2 id="completed-heading" className="text-xl font-bold">
                Completed Courses
              </h2>
              <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {completed.map((c) => (
                  <CompletedCard key={c.courseId} c={c} />
                ))}
              </div>
            </section>
          )}
        </>
      )}
    </PageContainer>
  );
}
