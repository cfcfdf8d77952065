import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourse } from "#client/lib/courses.ts";
import { usePaymentsConfig } from "#client/lib/payments.ts";
import { PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";
import { TestPaymentsBanner } from "./card-form.tsx";

/** The frame of the hosted-checkout pages: back link, test-payments banner, and the course loaded. */
export function CheckoutShell({
  courseId,
  className = "",
  children,
}: {
  courseId: string;
  className?: string;
  children: (course: CourseDetail) => ReactNode;
}) {
  const course = useCourse(courseId);
  const payments = usePaymentsConfig();
  return (
    <PageContainer className="max-w-xl">
      <Link to={paths.home} className="inline-flex items-center gap-1 text-sm text-muted hover:underline">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to Courses
      </Link>
      {payments.data?.testPaymentsBanner && (
        <div className="mt-4">
          <TestPaymentsBanner />
        </div>
      )}
      <Card className={`mt-4 p-6 ${className}`}>
        {course.isPending ? (
          <Skeleton className="h-40" />
        ) : course.isError ? (
          <p role="alert" className="text-danger">
            Failed to load course details
          </p>
        ) : course.data.comingSoon ? (
          <ComingSoonNotice course={course.data} />
        ) : payments.data?.enabled === false ? (
          <PurchasingUnavailable />
        ) : (
          children(course.data)
        )}
      </Card>
    </PageContainer>
  );
}

/** What checkout pages show instead of a payment form when purchasing is off. */
export function PurchasingUnavailable() {
  return (
    <div role="status" className="space-y-2 text-center">
      <p className="text-lg font-semibold">{PURCHASING_UNAVAILABLE}</p>
      <p className="text-sm text-muted">Courses cannot be bought on this site yet. Please check back soon.</p>
    </div>
  );
}

/** What checkout pages show for a course that is not on sale yet, instead of a payment that cannot start. */
export function ComingSoonNotice({ course }: { course: Pick<CourseDetail, "id" | "title"> }) {
  return (
    <div role="status" className="space-y-3 text-center">
      <p className="text-lg font-semibold">{course.title} is coming soon</p>
      <p className="text-sm text-muted">
        This course is currently being developed with comprehensive content, so it cannot be bought yet.
      </p>
      <Link to={paths.course(course.id)} className="inline-block font-medium text-brand-700 underline">
        Back to the course page
      </Link>
    </div>
  );
}
