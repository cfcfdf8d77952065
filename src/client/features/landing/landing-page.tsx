import { CheckCircle2, Clock, Quote } from "lucide-react";
import { Link } from "react-router";
import { ExternalLink } from "#client/components/layout/external-link.tsx";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { ClaimText, claimNote } from "#client/components/ui/claim.tsx";
import { LevelBadge } from "#client/components/ui/level-badge.tsx";
import { Badge, Card, PageContainer, Skeleton, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourses } from "#client/lib/courses.ts";
import { useSiteConfig, useSiteContent } from "#client/lib/site-config.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatPrice, formatStudyTime } from "#shared/format.ts";
import type { SiteContent } from "#shared/schemas/site-content.ts";

function CallToAction({ className, children }: { className: string; children: string }) {
  const { marketplaceUrl } = useSiteConfig();
  return marketplaceUrl ? (
    <ExternalLink href={marketplaceUrl} className={className}>
      {children}
    </ExternalLink>
  ) : (
    <Link to={`${paths.login}?tab=signup`} className={className}>
      {children}
    </Link>
  );
}

function FeaturedCourses() {
  const { data, isPending, isError } = useCourses();
  if (isError) return <p className="text-muted">Our course list could not be loaded. Please try again later.</p>;
  const courses = (data ?? []).filter((c) => !c.comingSoon);
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {isPending
        ? Array.from({ length: 4 }, (_, i) => <Skeleton key={i} className="h-64" />)
        : courses.map((course) => (
            <Card key={course.id} className="flex flex-col overflow-hidden">
              <div className={`h-2 bg-gradient-to-r ${course.gradient}`} />
              <div className="flex flex-1 flex-col p-5">
                <LevelBadge level={course.level} />
                <h3 className="mt-3 text-lg font-semibold">{course.title}</h3>
                <p className="mt-2 flex-1 text-sm text-muted">{course.description}</p>
                <div className="mt-4 flex items-center justify-between text-sm">
                  <span className="text-xl font-bold text-ink">{formatPrice(course.price)}</span>
                  <span className="flex items-center gap-1 text-muted">
                    <Clock size={16} aria-hidden="true" />
                    {formatStudyTime(course)}
                  </span>
                </div>
                <Link to={paths.course(course.id)} className={buttonClasses("secondary", "sm", "mt-4")}>
                  Preview course<span className="sr-only">: {course.title}</span>
                </Link>
              </div>
            </Card>
          ))}
    </div>
  );
}

/** Every course has the same price and length; the landing page states them once. */
const COURSE_PRICE = "$20.00";
const COURSE_DURATION = "4 weeks";

export default function LandingPage() {
  const content = useSiteContent();
  useDocumentMeta({
    title: `${BRAND_NAME}: Wellness Coach Courses with a Certificate of Completion`,
    description:
      "Self-paced courses for wellness and holistic-health coaches, each with a Certificate of Completion: nutrition, functional nutrition, integrative health and practice business skills.",
  });
  if (!content) return <Spinner />;
  return <Landing landing={content.landing} testimonials={content.testimonials} />;
}

function Landing({
  landing,
  testimonials,
}: {
  landing: SiteContent["landing"];
  testimonials: SiteContent["testimonials"];
}) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-50 via-white to-emerald-50">
        <PageContainer className="grid gap-10 py-16 lg:grid-cols-2 lg:items-center lg:py-24">
          <div>
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{landing.hero.eyebrow}</p>
            <h1 className="mt-3 font-serif text-4xl font-bold leading-tight text-ink hyphens-auto [overflow-wrap:anywhere] sm:text-5xl">
              {landing.hero.title}
            </h1>
            <p className="mt-5 text-lg text-slate-700">{landing.hero.text}</p>
            <p className="mt-3 text-slate-700">
              <ClaimText claim={landing.hero.completeIn} />
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <CallToAction className={buttonClasses("primary", "lg")}>Start a Course</CallToAction>
              <a href="#courses" className={buttonClasses("secondary", "lg")}>
                Explore Courses
              </a>
            </div>
          </div>
          {/* Two figures a row, or one when large text would not fit two on a phone (the column minimum is in rem). */}
          {/* Production leaves out a count or earnings figure without its source and date (decision 0058). */}
          {landing.figures.length > 0 && (
            <dl className="grid grid-cols-[repeat(auto-fit,minmax(10rem,1fr))] items-start gap-4 sm:grid-cols-2">
              {landing.figures.map((figure) => {
                const note = claimNote(figure, `${figure.value} ${figure.label}`);
                return (
                  <Card key={figure.label} className="p-5">
                    <dt className="text-sm text-muted">{figure.label}</dt>
                    <dd className="mt-1 text-3xl font-bold text-brand-800">{figure.value}</dd>
                    {note && <dd className="mt-1 text-sm text-slate-700">({note})</dd>}
                  </Card>
                );
              })}
            </dl>
          )}
        </PageContainer>
      </section>

      <section id="courses" aria-labelledby="courses-heading">
        <PageContainer className="py-16">
          <h2 id="courses-heading" className="text-2xl font-bold sm:text-3xl">
            Courses with a Certificate of Completion
          </h2>
          <p className="mt-2 text-muted">
            Each course is {COURSE_PRICE} and designed for {COURSE_DURATION} of part-time study, with lifetime access.
          </p>
          <div className="mt-8">
            <FeaturedCourses />
          </div>
        </PageContainer>
      </section>

      <section aria-labelledby="practitioner-heading" className="bg-brand-900 text-white">
        <PageContainer className="grid gap-8 py-16 lg:grid-cols-2">
          <div>
            <h2 id="practitioner-heading" className="text-2xl font-bold sm:text-3xl">
              {landing.practitioner.title}
            </h2>
            <p className="mt-4 text-brand-100">{landing.practitioner.text}</p>
            <p className="mt-4 text-sm text-brand-100">{landing.practitioner.note}</p>
            <CallToAction className={buttonClasses("light", "lg", "mt-6")}>Get Certified</CallToAction>
          </div>
          <ul className="space-y-3">
            {landing.practitioner.claims.map((claim) => (
              <li key={claim.text} className="flex gap-3">
                <CheckCircle2 className="mt-0.5 shrink-0 text-emerald-300" aria-hidden="true" />
                <span>
                  <ClaimText claim={claim} qualifierClass="text-brand-100" />
                </span>
              </li>
            ))}
          </ul>
        </PageContainer>
      </section>

      {/* Production sends no sample testimonials (decision 0029): with none left, there is no section. */}
      {testimonials.length > 0 && (
        <section aria-labelledby="testimonials-heading">
          <PageContainer className="py-16">
            <h2 id="testimonials-heading" className="text-2xl font-bold sm:text-3xl">
              What our graduates say
            </h2>
            <div className="mt-8 grid gap-6 md:grid-cols-3">
              {testimonials.map((t) => (
                <figure key={t.name} className="rounded-2xl border border-line bg-white p-6">
                  <div className="flex items-start justify-between">
                    <Quote className="text-brand-600" aria-hidden="true" />
                    {t.sample && (
                      <Badge className="bg-slate-100 text-slate-800">
                        Sample<span className="sr-only"> testimonial, not a real graduate's words</span>
                      </Badge>
                    )}
                  </div>
                  <blockquote className="mt-3 text-slate-700">“{t.quote}”</blockquote>
                  <figcaption className="mt-4 text-sm">
                    <span className="font-semibold">{t.name}</span>
                    <span className="text-muted">, {t.role}</span>
                  </figcaption>
                </figure>
              ))}
            </div>
          </PageContainer>
        </section>
      )}

      <section aria-labelledby="disclaimer-heading">
        <PageContainer className="pb-4">
          <div className="rounded-2xl border border-amber-300 bg-amber-50 p-6 text-sm text-amber-950">
            <h2 id="disclaimer-heading" className="font-semibold">
              {landing.disclaimer.title}
            </h2>
            <p className="mt-2">{landing.disclaimer.text}</p>
            <p className="mt-3">
              Read our{" "}
              <Link to={paths.terms} className="underline">
                Terms of Service
              </Link>{" "}
              and{" "}
              <Link to={paths.privacy} className="underline">
                Privacy Policy
              </Link>
              , or contact support from the links at the bottom of the page.
            </p>
          </div>
        </PageContainer>
      </section>
    </>
  );
}
