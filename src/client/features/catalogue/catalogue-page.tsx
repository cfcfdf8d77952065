import { BookOpen, Clock, Layers, TrendingUp } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { claimNote } from "#client/components/ui/claim.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Badge, Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourses, useEnrollments } from "#client/lib/courses.ts";
import { usePurchasing } from "#client/lib/payments.ts";
import { useSiteContent } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import { formatPrice, formatStudyTime } from "#shared/format.ts";
import type { CourseCard } from "#shared/schemas/courses.ts";

function CourseCardView({ course, enrolled }: { course: CourseCard; enrolled: boolean }) {
  const price = formatPrice(course.price);
  const purchasing = usePurchasing();
  return (
    <Card className="flex flex-col overflow-hidden" data-testid={`course-card-${course.id}`}>
      <div className={`flex h-28 items-end bg-gradient-to-br p-4 ${course.gradient}`}>
        <BookOpen className="text-white/90" size={32} aria-hidden="true" />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center gap-2">
          <LevelBadge level={course.level} />
          {course.comingSoon && <Badge className="bg-orange-100 text-orange-800">Coming Soon</Badge>}
          {enrolled && <Badge className="bg-brand-100 text-brand-800">Enrolled</Badge>}
        </div>
        <h2 className="mt-3 text-lg font-semibold">{course.title}</h2>
        <p className="mt-2 flex-1 text-sm text-muted">{course.description}</p>
        <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="sr-only">Price</dt>
            <dd className="text-lg font-bold">{price}</dd>
          </div>
          <div className="flex items-center gap-1 text-muted">
            <Clock size={16} aria-hidden="true" />
            <dt className="sr-only">Duration</dt>
            <dd>{formatStudyTime(course)}</dd>
          </div>
          <div className="flex items-center gap-1 text-muted">
            <Layers size={16} aria-hidden="true" />
            <dt className="sr-only">Modules</dt>
            <dd>{course.comingSoon ? "Coming soon" : `${course.moduleCount} modules`}</dd>
          </div>
        </dl>
        <div className="mt-5 flex flex-col gap-2">
          {course.comingSoon ? (
            <>
              <Button disabled variant="secondary">
                Course Coming Soon
              </Button>
              <p className="text-xs text-muted">This course is currently being developed with comprehensive content</p>
            </>
          ) : enrolled ? (
            <Link to={paths.course(course.id)} className={buttonClasses("primary")}>
              Continue Course
            </Link>
          ) : course.marketplaceUrl ? (
            <>
              <ExternalLink href={course.marketplaceUrl} className={buttonClasses("secondary")}>
                Preview Course Content<span className="sr-only">: {course.title}</span>
              </ExternalLink>
              <ExternalLink href={course.marketplaceUrl} className={buttonClasses("primary")}>
                Buy Now - {price}
                <span className="sr-only">: {course.title}</span>
              </ExternalLink>
            </>
          ) : (
            <>
              <Link to={paths.course(course.id)} className={buttonClasses("secondary")}>
                Preview Course Content<span className="sr-only">: {course.title}</span>
              </Link>
              {purchasing ? (
                <Link to={paths.checkout(course.id)} className={buttonClasses("primary")}>
                  Buy Now - {price}
                  <span className="sr-only">: {course.title}</span>
                </Link>
              ) : (
                <p className="text-center text-sm text-muted">{PURCHASING_UNAVAILABLE}</p>
              )}
            </>
          )}
        </div>
      </div>
    </Card>
  );
}

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
