import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useCourse } from "#client/lib/courses.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { useQuestionSearch } from "./api.ts";
import { lessonQuestionPath } from "./pages-api.ts";

const MIN_SEARCH = 3;

/** The course-wide search of learners' questions, each with the lesson it belongs to (decision 0056). */
export default function CourseQuestionsPage() {
  const [params, setParams] = useSearchParams();
  const courseId = params.get("course") ?? "";
  const search = params.get("search") ?? "";
  const [draft, setDraft] = useState(search);
  const [tooShort, setTooShort] = useState(false);
  const course = useCourse(courseId);
  const results = useQuestionSearch(courseId, search);
  const title = course.data?.title ?? "Course";
  useDocumentMeta({
    title: `Questions: ${title} | ${BRAND_NAME}`,
    description: `Learners' questions on the lessons of ${title}, and their answers.`,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    setTooShort(next.length < MIN_SEARCH);
    if (next.length >= MIN_SEARCH) setParams({ course: courseId, search: next }, { replace: true });
  };
  const items = results.data?.items ?? [];
  return (
    <PageContainer className="max-w-3xl py-10">
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <Link to={paths.course(courseId)} className="hover:underline">
          {title}
        </Link>
      </nav>
      <h1 className="mt-2 font-serif text-3xl font-bold">Questions in this course</h1>
      <search className="mt-4 block">
        <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
          <TextField
            label="Search questions"
            type="search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            maxLength={200}
            errorId={tooShort ? "search-error" : undefined}
            className="min-w-0 flex-1"
          />
          <Button type="submit">Search</Button>
        </form>
      </search>
      {tooShort ? (
        <p id="search-error" className="mt-1 text-sm text-danger">
          Type at least {MIN_SEARCH} letters.
        </p>
      ) : null}
      <p role="status" className="mt-4 text-sm text-muted">
        {search.length < MIN_SEARCH
          ? "Search the questions learners asked on this course's lessons."
          : results.isPending
            ? ""
            : results.isError
              ? refusal(results.error)
              : `${items.length} question${items.length === 1 ? "" : "s"} found for "${search}".`}
      </p>
      {items.length > 0 ? (
        <ul className="mt-3 space-y-2" aria-label="Questions found">
          {items.map((q) => (
            <li key={q.id} className="rounded-lg border border-line p-3" data-testid="question-result">
              <Link
                to={lessonQuestionPath(courseId, q.lessonId, q.id)}
                className="font-medium text-brand-800 underline"
              >
                {q.title}
              </Link>
              <p className="text-sm text-muted">
                Lesson: {q.lessonTitle} · {q.answerCount} answer{q.answerCount === 1 ? "" : "s"}
                {q.answered ? " · answered" : ""} · {formatLongDate(q.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </PageContainer>
  );
}
