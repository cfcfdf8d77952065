import { TrendingUp } from "lucide-react";
import { CourseCardView } from "#client/components/course-card.tsx";
import { claimNote } from "#client/components/ui/claim.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useCourses, useEnrollments } from "#client/lib/courses.ts";
import { useSiteContent } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

export default function CataloguePage() {
  useDocumentMeta({
    title: `Holistic Wellness Coach Courses with a Certificate of Completion | ${BRAND_NAME}`,
    description:
      "Online courses for wellness coaches, each with a Certificate of Completion: nutrition coaching, functional nutrition, integrative health and business skills for holistic practitioners.",
  });
  const banner = useSiteContent()?.practitionerApp.banner;
  const bannerNote = banner ? claimNote(banner, `${banner.headline} ${banner.text}`) : null;
  const courses = useCourses();
  const enrollments = useEnrollments();
  // An enrolment check that fails counts as not enrolled.
  const enrolledIds = new Set((enrollments.data ?? []).map((e) => e.courseId));

  return (
    <PageContainer>
      <h1 className="font-serif text-3xl font-bold sm:text-4xl">Holistic Wellness Coach Certification Programs</h1>
      {/* Production sends no banner whose figures lack a source and date (decision 0058). */}
      {banner && (
        <div
          data-testid="earnings-banner"
          className="mt-6 flex flex-col gap-3 rounded-2xl bg-gradient-to-r from-brand-800 to-emerald-800 p-5 text-white sm:flex-row sm:items-center"
        >
          <TrendingUp size={32} aria-hidden="true" className="shrink-0" />
          <p>
            <strong>{banner.headline}</strong> {banner.text}
            {bannerNote && <span className="mt-1 block text-sm">{bannerNote}</span>}
          </p>
        </div>
      )}
      {courses.isError ? (
        <Card className="mt-8 border-red-200 bg-red-50 p-6" role="alert">
          <h2 className="text-lg font-semibold text-red-900">Error Loading Courses</h2>
          <p className="mt-1 text-red-800">Failed to load courses. Please try again later.</p>
        </Card>
      ) : (
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy={courses.isPending}>
          {courses.isPending
            ? Array.from({ length: 5 }, (_, i) => (
                <Card key={i} className="overflow-hidden" data-testid="course-skeleton">
                  <Skeleton className="h-28 rounded-none" />
                  <div className="space-y-3 p-5">
                    <Skeleton className="h-5 w-20" />
                    <Skeleton className="h-6 w-3/4" />
                    <Skeleton className="h-16" />
                    <Skeleton className="h-11" />
                  </div>
                </Card>
              ))
            : courses.data.map((c) => <CourseCardView key={c.id} course={c} enrolled={enrolledIds.has(c.id)} />)}
        </div>
      )}
    </PageContainer>
  );
}
