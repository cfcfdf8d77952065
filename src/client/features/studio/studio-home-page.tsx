import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card, PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { slugSchema } from "#shared/schemas/common.ts";
import { createStudioCourseSchema } from "#shared/schemas/studio.ts";
import { useCreateCourse, useSlugCheck, useStudioCourses } from "./api.ts";
import { CourseInstructors } from "./course-instructors.tsx";

/** The value once it has stopped changing for a moment (a slug is asked about when the author pauses). */
function useSettled<T>(value: T, ms = 300) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What the slug field says of the slug typed so far: its form first, then (once valid) whether it is free. */
function SlugStatus({ id, slug }: { id: string; slug: string }) {
  const valid = slugSchema.safeParse(slug).success;
  const settled = useSettled(slug);
  const check = useSlugCheck(valid && settled === slug ? slug : null);
  let text = "Lowercase letters, digits and single hyphens: it becomes the course's address.";
  let tone = "text-muted";
  if (slug && !valid) {
    text = "Use only lowercase letters, digits and single hyphens between them.";
    tone = "text-danger";
  } else if (valid && check.data?.slug === slug) {
    text = check.data.available ? `“${slug}” is free.` : `A course already uses “${slug}”: choose another.`;
    tone = check.data.available ? "text-green-800" : "text-danger";
  } else if (valid) text = "Checking…";
  return (
    <p id={id} aria-live="polite" className={`mt-1 text-sm ${tone}`}>
      {text}
    </p>
  );
}

function NewCourseForm() {
  const navigate = useNavigate();
  const create = useCreateCourse();
  const statusId = useId();
  const form = useForm({ resolver: zodResolver(createStudioCourseSchema), defaultValues: { slug: "", title: "" } });
  const error = useFormErrors(form);
  const slug = form.watch("slug");

  const submit = form.handleSubmit((input) =>
    create.isPending
      ? undefined
      : create.mutate(input, {
          onSuccess: (draft) => navigate(paths.studioCourse(draft.courseId, "settings")),
          onError: (failure) =>
            failure instanceof ApiError && failure.status === 409
              ? error.show(refusal(failure), "slug")
              : error.show(refusal(failure)),
        }),
  );

  return (
    <Card className="p-4 sm:p-6">
      <h2 id="new-course" className="text-lg font-semibold">
        New course
      </h2>
      <form onSubmit={submit} noValidate aria-labelledby="new-course" className="mt-4 grid gap-4 sm:grid-cols-2">
        <div className="empty:hidden sm:col-span-2">
          <FormError id={error.errorId} message={error.message} />
        </div>
        <TextField {...error.field("title")} label="Title" autoComplete="off" required />
        <div>
          <TextField
            {...error.field("slug")}
            label="Slug"
            autoComplete="off"
            spellCheck={false}
            required
            aria-describedby={[error.errorIdOf("slug"), statusId].filter(Boolean).join(" ")}
          />
          <SlugStatus id={statusId} slug={slug} />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" aria-disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create course"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function CourseList() {
  const courses = useStudioCourses();
  if (courses.isPending) return <Spinner label="Loading your courses" />;
  if (courses.isError) return <p role="alert">{refusal(courses.error, "Your courses could not be loaded.")}</p>;
  if (courses.data.length === 0)
    return (
      <p className="text-muted">No course is assigned to you yet. An administrator assigns instructors to courses.</p>
    );
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it.
    <section className="overflow-x-auto" aria-label="Your courses (scrolls sideways)" tabIndex={0}>
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">Your courses, with their draft and published version</caption>
        <thead>
          <tr className="border-b border-line">
            <th scope="col" className="py-2 pr-4">
              Course
            </th>
            <th scope="col" className="py-2 pr-4">
              Draft
            </th>
            <th scope="col" className="py-2 pr-4">
              Published
            </th>
            <th scope="col" className="py-2">
              Last change
            </th>
          </tr>
        </thead>
        <tbody>
          {courses.data.map((c) => (
            <tr key={c.id} className="border-b border-line">
              <th scope="row" className="py-2 pr-4 font-medium">
                <Link to={paths.studioCourse(c.id, "settings")} className="text-brand-700 underline">
                  {c.title}
                </Link>
                <span className="block text-xs font-normal text-muted">{c.id}</span>
              </th>
              <td className="py-2 pr-4">{c.draftRevision === null ? "None" : `Revision ${c.draftRevision}`}</td>
              <td className="py-2 pr-4">
                {c.publishedVersion === null ? "Not published" : `Version ${c.publishedVersion}`}
              </td>
              <td className="py-2">{c.updatedAt ? formatLongDate(c.updatedAt) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** /studio: the caller's courses, and for admins "New course" and who teaches what. */
export default function StudioHomePage() {
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  useDocumentMeta({ title: `Studio | ${BRAND_NAME}`, description: "Write, check and publish courses." });
  return (
    <PageContainer>
      <h1 className="font-serif text-3xl font-bold">Studio</h1>
      <p className="mt-2 text-muted">
        {isAdmin ? "Every course of the academy." : "The courses assigned to you."} Open one to edit its draft; learners
        see a change only once it is published.
      </p>
      <div className="mt-6 space-y-8">
        {isAdmin && <NewCourseForm />}
        <section aria-labelledby="your-courses">
          <h2 id="your-courses" className="mb-3 text-lg font-semibold">
            Courses
          </h2>
          <CourseList />
        </section>
        {isAdmin && <CourseInstructors />}
      </div>
    </PageContainer>
  );
}
