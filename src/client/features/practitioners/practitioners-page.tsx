import { BadgeCheck, Mail, MapPin } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Card, CertificateId, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCourses } from "#client/lib/courses.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { usePractitioners } from "./api.ts";

/** The public directory: holders of a valid certificate who chose to be listed. */
export default function PractitionersPage() {
  useDocumentMeta({
    title: `Find a coach who holds our Certificate of Completion | ${BRAND_NAME}`,
    description: `Practitioners who hold a valid ${BRAND_NAME} certificate, by course and region.`,
  });
  const [params, setParams] = useSearchParams();
  const course = params.get("course") ?? "";
  const region = params.get("region") ?? "";
  const [regionInput, setRegionInput] = useState(region);
  const courses = useCourses();
  const directory = usePractitioners(course, region);
  const { isAuthenticated } = useCurrentUser();

  const update = (next: { course?: string; region?: string }) => {
    const merged = { course, region, ...next };
    const search = new URLSearchParams();
    if (merged.course) search.set("course", merged.course);
    if (merged.region.trim()) search.set("region", merged.region.trim());
    setParams(search, { replace: true });
  };

  return (
    <PageContainer className="max-w-5xl">
      <h1 className="font-serif text-3xl font-bold">Find a coach who holds our Certificate of Completion</h1>
      <p className="mt-3 max-w-3xl text-slate-700">
        Everyone listed here holds a valid {BRAND_NAME} Certificate of Completion and chose to be listed. Each card
        links to the certificate's public verification page. Practitioners offer educational coaching, not medical
        advice.
      </p>
      <p className="mt-3 text-sm">
        {isAuthenticated ? (
          <Link to={paths.profile} className="font-medium text-brand-800 underline">
            List yourself or change your listing in your profile
          </Link>
        ) : (
          <>
            Hold one?{" "}
            <Link to={paths.login} className="font-medium text-brand-800 underline">
              Sign in
            </Link>{" "}
            to list yourself from your profile.
          </>
        )}{" "}
        ·{" "}
        <Link to={paths.practitionerRegistration} className="text-brand-800 underline">
          About the practitioner app
        </Link>
      </p>
      <form
        aria-label="Search the directory"
        className="mt-6 flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          update({ region: regionInput });
        }}
      >
        {/* Never wider than the screen: course names are long, and a select is as wide as its longest option. */}
        <div className="min-w-0 max-w-full">
          <label htmlFor="directory-course" className="mb-1 block text-sm font-medium text-slate-800">
            Course
          </label>
          <select
            id="directory-course"
            className="h-11 w-full max-w-full rounded-lg border border-slate-300 bg-white px-3"
            value={course}
            onChange={(e) => update({ course: e.target.value, region: regionInput })}
          >
            <option value="">All courses</option>
            {(courses.data ?? [])
              .filter((c) => !c.comingSoon)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
          </select>
        </div>
        <TextField
          label="City or region"
          name="region"
          maxLength={80}
          value={regionInput}
          onChange={(e) => setRegionInput(e.target.value)}
        />
        <button type="submit" className={buttonClasses("primary")}>
          Search
        </button>
      </form>

      <div aria-live="polite" className="mt-8">
        {directory.isPending ? (
          <div className="grid gap-4 sm:grid-cols-2" aria-busy="true">
            <Skeleton className="h-40" />
            <Skeleton className="h-40" />
          </div>
        ) : directory.isError ? (
          <p role="alert">The directory could not be loaded. Please try again later.</p>
        ) : directory.data.practitioners.length === 0 ? (
          <p>No practitioners match this search yet.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 [&>li]:min-w-0" aria-label="Practitioners">
            {directory.data.practitioners.map((p) => (
              <li key={p.certificates[0]?.certificateId ?? p.displayName}>
                <Card className="h-full min-w-0 p-5">
                  <h2 className="text-lg font-semibold">{p.displayName}</h2>
                  <p className="mt-1 flex items-center gap-1 text-sm text-muted">
                    <MapPin size={14} aria-hidden="true" />
                    {p.region}
                  </p>
                  <p className="mt-3 whitespace-pre-line text-sm text-slate-800">{p.bio}</p>
                  <ul className="mt-3 space-y-1 text-sm">
                    {p.certificates.map((c) => (
                      <li key={c.certificateId}>
                        <Link to={paths.verify(c.certificateId)} className="text-brand-800 underline">
                          <BadgeCheck size={14} aria-hidden="true" className="mr-1 inline align-[-2px]" />
                          {c.courseTitle}: verify certificate <CertificateId id={c.certificateId} />
                        </Link>
                      </li>
                    ))}
                  </ul>
                  <a
                    href={p.contactUrl}
                    rel="nofollow noopener noreferrer"
                    target={p.contactUrl.startsWith("https:") ? "_blank" : undefined}
                    className={buttonClasses("secondary", "md", "mt-4")}
                  >
                    <Mail size={16} aria-hidden="true" />
                    Contact {p.displayName}
                  </a>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}
