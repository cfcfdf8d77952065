import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, ThumbsUp } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, useFormErrors } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { formatLongDate } from "#shared/format.ts";
import { type Answer, newAnswerSchema, type QuestionDetail, type QuestionSummary } from "#shared/schemas/questions.ts";
import { useAccept, useAnswer, usePreview, useQuestion, useReport, useToggle } from "./api.ts";

/** A question with its answers, and the parts of a post every questions page shows (decision 0056). */

const BADGES = { instructor: "Instructor", assessor: "Assessor", admin: "Admin" } as const;

export function Byline({ author, createdAt, editedAt }: Pick<QuestionSummary, "author" | "createdAt" | "editedAt">) {
  return (
    <p className="text-xs text-muted">
      {author.name}
      {author.badge ? (
        <span className="ml-1 rounded bg-brand-100 px-1.5 py-0.5 font-semibold text-brand-900">
          {BADGES[author.badge]}
        </span>
      ) : null}{" "}
      · {formatLongDate(createdAt)}
      {editedAt ? " · edited" : ""}
    </p>
  );
}

/** The sanitised HTML the server rendered from the post's Markdown (decision 0056). */
export const PostBody = ({ html }: { html: string }) => (
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with an allow-list on the server (post-markdown.ts).
  <div className="prose-lesson text-sm" dangerouslySetInnerHTML={{ __html: html }} />
);

export function MarkdownField(props: {
  id: string;
  label: string;
  errorId: string | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const preview = usePreview();
  const previewId = `${props.id}-preview`;
  return (
    <div>
      <label htmlFor={props.id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <textarea
        id={props.id}
        rows={4}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={[props.errorId, `${props.id}-hint`].filter(Boolean).join(" ")}
        aria-invalid={!!props.errorId}
        className="w-full rounded-lg border border-slate-300 p-2 text-base"
      />
      <p id={`${props.id}-hint`} className="text-xs text-muted">
        Markdown: **bold**, _italic_, [links](https://…), `code`, lists. No images.
      </p>
      <Button size="sm" variant="ghost" onClick={() => preview.mutate(props.value)} pending={preview.isPending}>
        Preview
      </Button>
      {preview.data ? (
        <section aria-label="Preview" id={previewId} className="mt-2 rounded border border-dashed border-slate-300 p-2">
          <PostBody html={preview.data.html || "<p>(empty)</p>"} />
        </section>
      ) : null}
    </div>
  );
}

function AnswerForm({ questionId }: { questionId: string }) {
  const toast = useToast();
  const post = useAnswer(questionId);
  const form = useForm({ resolver: zodResolver(newAnswerSchema), defaultValues: { body: "" } });
  const error = useFormErrors(form);
  const bodyId = useId();
  const submit = form.handleSubmit(async (values) => {
    try {
      const detail = await post.mutateAsync(values);
      form.reset();
      const mine = detail.answers.filter((a) => a.mine).at(-1);
      toast({ title: mine?.state === "held" ? "Answer Waiting for Moderation" : "Answer Posted" });
      document.getElementById(bodyId)?.focus();
    } catch (failure) {
      error.show(refusal(failure), "body");
      document.getElementById(bodyId)?.focus();
    }
  });
  return (
    <form onSubmit={submit} noValidate className="mt-3 space-y-2" aria-label="Answer this question">
      <FormError id={error.errorId} message={error.message} />
      <MarkdownField
        id={bodyId}
        label="Your answer"
        errorId={error.errorIdOf("body")}
        value={form.watch("body")}
        onChange={(value) => form.setValue("body", value, { shouldValidate: form.formState.isSubmitted })}
      />
      <Button type="submit" size="sm" pending={post.isPending}>
        Post answer
      </Button>
    </form>
  );
}

function ReportButton({ postId }: { postId: string }) {
  const toast = useToast();
  const report = useReport(postId, {
    onSuccess: () => toast({ title: "Reported", description: "An admin will look at it." }),
    onError: (failure) => toast({ title: "Not Reported", description: refusal(failure), variant: "destructive" }),
  });
  return (
    <Button size="sm" variant="ghost" onClick={() => report.mutate({ reason: "other" })} pending={report.isPending}>
      Report
    </Button>
  );
}

function AnswerItem({ answer, question }: { answer: Answer; question: QuestionDetail }) {
  const toast = useToast();
  const accept = useAccept({
    onSuccess: () => toast({ title: "Answer Accepted" }),
    onError: (failure) => toast({ title: "Not Accepted", description: refusal(failure), variant: "destructive" }),
  });
  return (
    <li className={`rounded border p-2 ${answer.accepted ? "border-green-700" : "border-slate-200"}`}>
      {answer.accepted ? (
        <p className="flex items-center gap-1 text-xs font-semibold text-green-800">
          <CheckCircle2 size={14} aria-hidden="true" /> Accepted answer
        </p>
      ) : null}
      {answer.state === "held" ? <p className="text-xs font-semibold">Waiting for moderation</p> : null}
      <PostBody html={answer.html} />
      <Byline author={answer.author} createdAt={answer.createdAt} editedAt={answer.editedAt} />
      <div className="flex flex-wrap gap-1">
        {question.canAccept && !answer.accepted && answer.state === "visible" ? (
          <Button size="sm" variant="secondary" onClick={() => accept.mutate(answer.id)} pending={accept.isPending}>
            Accept<span className="sr-only"> this answer</span>
          </Button>
        ) : null}
        {!answer.mine ? <ReportButton postId={answer.id} /> : null}
      </div>
    </li>
  );
}

export function QuestionThread({ questionId, onClose }: { questionId: string; onClose: () => void }) {
  const question = useQuestion(questionId);
  const upvote = useToggle(questionId, "upvote");
  const follow = useToggle(questionId, "follow");
  const promote = useToggle(questionId, "promote");
  const toast = useToast();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opening a question moves focus to it, so keyboard and screen-reader users land where it appeared.
  const loadedId = question.data?.id;
  useEffect(() => {
    if (loadedId) headingRef.current?.focus();
  }, [loadedId]);
  if (question.isPending) return <Skeleton className="h-32" />;
  if (question.isError)
    return (
      <div role="alert" className="text-sm">
        {refusal(question.error)}{" "}
        <Button size="sm" variant="ghost" onClick={onClose}>
          Back to questions
        </Button>
      </div>
    );
  const q = question.data;
  return (
    <article aria-labelledby={`q-${q.id}`} className="space-y-2">
      <Button size="sm" variant="ghost" onClick={onClose}>
        Back to questions
      </Button>
      <h3 id={`q-${q.id}`} ref={headingRef} tabIndex={-1} className="text-base font-semibold">
        {q.title}
      </h3>
      {q.state === "held" ? <p className="text-xs font-semibold">Waiting for moderation</p> : null}
      <Byline author={q.author} createdAt={q.createdAt} editedAt={q.editedAt} />
      <PostBody html={q.html} />
      <div className="flex flex-wrap gap-1">
        {q.canPost ? (
          <Button
            size="sm"
            variant="secondary"
            aria-pressed={q.upvoted}
            onClick={() => upvote.mutate(!q.upvoted)}
            pending={upvote.isPending}
          >
            <ThumbsUp size={14} aria-hidden="true" /> Upvote ({q.upvotes})
          </Button>
        ) : null}
        {q.canPost ? (
          <Button
            size="sm"
            variant="secondary"
            aria-pressed={q.following}
            onClick={() => follow.mutate(!q.following)}
            pending={follow.isPending}
          >
            {q.following ? "Following" : "Follow"}
          </Button>
        ) : null}
        {q.canPromote && q.acceptedAnswerId ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              promote.mutate(!q.promoted, {
                onSuccess: () =>
                  toast({ title: q.promoted ? "Removed from Common Questions" : "Added to Common Questions" }),
              })
            }
            pending={promote.isPending}
          >
            {q.promoted ? "Remove from common questions" : "Promote to common questions"}
          </Button>
        ) : null}
        {!q.mine ? <ReportButton postId={q.id} /> : null}
      </div>
      <h4 className="pt-2 text-sm font-semibold">
        {q.answers.length} answer{q.answers.length === 1 ? "" : "s"}
      </h4>
      <ul className="space-y-2">
        {q.answers.map((a) => (
          <AnswerItem key={a.id} answer={a} question={q} />
        ))}
      </ul>
      {q.canPost ? <AnswerForm questionId={q.id} /> : null}
    </article>
  );
}
