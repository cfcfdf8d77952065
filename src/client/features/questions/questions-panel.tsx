import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { newQuestionSchema } from "#shared/schemas/questions.ts";
import { useAskQuestion, useLessonQuestions, useQuestionSearch } from "./api.ts";
import { Byline, MarkdownField, QuestionThread } from "./question-thread.tsx";

function AskForm({
  courseId,
  lessonId,
  onAsked,
}: {
  courseId: string;
  lessonId: string;
  onAsked: (id: string) => void;
}) {
  const toast = useToast();
  const ask = useAskQuestion(courseId, lessonId);
  const form = useForm({ resolver: zodResolver(newQuestionSchema), defaultValues: { title: "", body: "" } });
  const error = useFormErrors(form);
  const bodyId = useId();
  const title = form.watch("title");
  const [typed, setTyped] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setTyped(title), 300);
    return () => clearTimeout(timer);
  }, [title]);
  const similar = useQuestionSearch(courseId, typed);
  const submit = form.handleSubmit(async (values) => {
    try {
      const asked = await ask.mutateAsync(values);
      form.reset();
      toast({
        title: asked.state === "held" ? "Question Waiting for Moderation" : "Question Posted",
        description: asked.title,
      });
      onAsked(asked.id);
    } catch (failure) {
      error.show(refusal(failure), "title");
    }
  });
  const hints = similar.data?.items.slice(0, 5) ?? [];
  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Ask a question">
      <FormError id={error.errorId} message={error.message} />
      <TextField {...error.field("title")} label="Your question" maxLength={150} />
      {hints.length > 0 ? (
        <section aria-label="Similar questions" aria-live="polite" className="rounded bg-slate-50 p-2 text-sm">
          <p className="font-medium">Similar questions already asked:</p>
          <ul className="mt-1 list-disc pl-5">
            {hints.map((h) => (
              <li key={h.id}>
                <button type="button" className="text-left text-brand-800 underline" onClick={() => onAsked(h.id)}>
                  {h.title}
                </button>{" "}
                <span className="text-muted">
                  ({h.lessonTitle}, {h.answerCount} answer{h.answerCount === 1 ? "" : "s"})
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <MarkdownField
        id={bodyId}
        label="Details"
        errorId={error.errorIdOf("body")}
        value={form.watch("body")}
        onChange={(value) => form.setValue("body", value, { shouldValidate: form.formState.isSubmitted })}
      />
      <Button type="submit" size="sm" pending={ask.isPending}>
        Post question
      </Button>
    </form>
  );
}

/** The Questions panel of a lesson (decision 0056): the list, a question's thread, and the ask form. */
export default function QuestionsPanel({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const [params, setParams] = useSearchParams();
  const open = params.get("question");
  const list = useLessonQuestions(courseId, lessonId);
  const listRef = useRef<HTMLHeadingElement>(null);
  const setOpen = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set("question", id);
        else next.delete("question");
        return next;
      },
      { replace: true },
    );
  const close = () => {
    setOpen(null);
    requestAnimationFrame(() => listRef.current?.focus());
  };
  const first = list.data?.pages[0];
  return (
    <section aria-labelledby="questions-heading" className="mt-8 rounded-lg border border-slate-200 p-3 lg:mt-6">
      <h2 id="questions-heading" ref={listRef} tabIndex={-1} className="text-lg font-bold">
        Questions
      </h2>
      <Link to={`/questions/search?course=${courseId}`} className="text-sm text-brand-800 underline">
        Search all questions in this course
      </Link>
      {open ? (
        <QuestionThread questionId={open} onClose={close} />
      ) : list.isPending ? (
        <Skeleton className="h-24" />
      ) : list.isError ? (
        <p className="text-sm text-muted">
          {list.error instanceof ApiError && (list.error.status === 401 || list.error.status === 403)
            ? "Enroll in this course to read and ask questions on this lesson."
            : refusal(list.error)}
        </p>
      ) : (
        <div className="space-y-3">
          {first?.canPost ? (
            <AskForm courseId={courseId} lessonId={lessonId} onAsked={setOpen} />
          ) : (
            <p className="text-sm text-muted">{first?.postingRefusal ?? "Enroll in this course to ask a question."}</p>
          )}
          {list.data.pages[0]?.items.length === 0 ? (
            <p className="text-sm text-muted">No questions on this lesson yet.</p>
          ) : (
            <ul className="space-y-2">
              {list.data.pages.flatMap((page) =>
                page.items.map((item) => (
                  <li key={item.id} className="rounded border border-slate-200 p-2">
                    <button
                      type="button"
                      className="text-left font-medium text-brand-800 underline"
                      onClick={() => setOpen(item.id)}
                    >
                      {item.title}
                    </button>
                    <p className="text-xs text-muted">
                      {item.answerCount} answer{item.answerCount === 1 ? "" : "s"} · {item.upvotes} upvote
                      {item.upvotes === 1 ? "" : "s"}
                      {item.answered ? " · answered" : ""}
                      {item.state === "held" ? " · waiting for moderation" : ""}
                    </p>
                    <Byline author={item.author} createdAt={item.createdAt} editedAt={item.editedAt} />
                  </li>
                )),
              )}
            </ul>
          )}
          {list.hasNextPage ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void list.fetchNextPage()}
              pending={list.isFetchingNextPage}
            >
              More questions
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}

export { default as QuestionsPages } from "./questions-pages.tsx";
