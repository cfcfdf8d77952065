import { BookOpen, Clock, Layers } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Badge, Card } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { usePurchasing } from "#client/lib/payments.ts";
import { PURCHASING_UNAVAILABLE } from "#shared/constants.ts";
import { formatPrice, formatStudyTime } from "#shared/format.ts";
import type { CourseCard } from "#shared/schemas/courses.ts";

/** A course as the catalogue shows it to learners (the studio previews a draft's card with it). */
export function CourseCardView({ course, enrolled }: { course: CourseCard; enrolled: boolean }) {
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
