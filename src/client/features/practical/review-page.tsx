import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, useFormError } from "#client/components/ui/form.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { ReviewSubmission } from "#shared/schemas/practical.ts";
import { useClaimSubmission, useReleaseSubmission, useReviewSubmission, useSubmitReview } from "./api.ts";
import { FileLinks } from "./file-links.tsx";
import { ReviewView, RubricTable } from "./rubric.tsx";

/** Per-criterion level and comment, overall feedback and the decision. */
function ReviewForm({ submission }: { submission: ReviewSubmission }) {
  const toast = useToast();
  const form = useFormError<"feedback">();
  const [points, setPoints] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const [feedback, setFeedback] = useState("");
  const [decision, setDecision] = useState<"pass" | "resubmit">("resubmit");
  const review = useSubmitReview(submission.number, {
    onSuccess: () =>
      toast({ title: "Review Sent", description: `Submission #${submission.number}: the learner is told by e-mail.` }),
    onError: (error) => form.show(refusal(error, error.message), "feedback"),
  });
  const release = useReleaseSubmission(submission.number);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.clear();
    const scores = [];
    for (const c of submission.rubric.criteria) {
      const [chosen, comment] = [points[c.id], comments[c.id]];
      if (chosen === undefined || !comment?.trim())
        return form.show(`Choose a level and write a comment for "${c.title}".`, "feedback");
      scores.push({ criterionId: c.id, points: chosen, comment });
    }
    review.mutate({
      scores,
      feedback,
      decision,
    });
  };
  const feedbackField = form.field("feedback");
  return (
    <form className="mt-8 space-y-5" onSubmit={onSubmit} noValidate>
      <h2 className="text-xl font-semibold">Your review</h2>
      {submission.rubric.criteria.map((c) => (
        <fieldset key={c.id} className="rounded-xl border border-line bg-white p-4">
          <legend className="px-1 font-semibold">{c.title}</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-2">
            {c.levels.map((l) => (
              <label key={l.points} className="flex items-start gap-2 rounded-lg bg-slate-50 p-2 text-sm">
                <input
                  type="radio"
                  name={`level-${c.id}`}
                  checked={points[c.id] === l.points}
                  onChange={() => setPoints({ ...points, [c.id]: l.points })}
                  className="mt-1"
                />
                <span>
                  <span className="font-medium">
                    {l.label} ({l.points})
                  </span>
                  : {l.descriptor}
                </span>
              </label>
            ))}
          </div>
          <label htmlFor={`comment-${c.id}`} className="mt-3 block text-sm font-medium">
            Comment on {c.title}
          </label>
          <textarea
            id={`comment-${c.id}`}
            rows={2}
            value={comments[c.id] ?? ""}
            onChange={(e) => setComments({ ...comments, [c.id]: e.target.value })}
            className="w-full rounded-lg border border-slate-300 p-2 text-base"
          />
        </fieldset>
      ))}
      <div>
        <label htmlFor={feedbackField.id} className="mb-1 block text-sm font-medium">
          Overall feedback for the learner
        </label>
        <textarea
          id={feedbackField.id}
          rows={4}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          aria-describedby={feedbackField.errorId}
          aria-invalid={!!feedbackField.errorId}
          className="w-full rounded-lg border border-slate-300 p-2 text-base"
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Decision</legend>
        <label className="mr-6 inline-flex items-center gap-2">
          <input type="radio" name="decision" checked={decision === "pass"} onChange={() => setDecision("pass")} /> Pass
        </label>
        <label className="inline-flex items-center gap-2">
          <input
            type="radio"
            name="decision"
            checked={decision === "resubmit"}
            onChange={() => setDecision("resubmit")}
          />{" "}
          Resubmit
        </label>
      </fieldset>
      <FormError id={form.errorId} message={form.message} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={review.isPending}>
          {review.isPending ? "Sending..." : "Send Review"}
        </Button>
        <Button type="button" variant="secondary" disabled={release.isPending} onClick={() => release.mutate()}>
          Give Back to Queue
        </Button>
      </div>
    </form>
  );
}

export default function ReviewPage() {
  const number = Number(useParams().number);
  useDocumentMeta({
    title: `Submission #${number} | ${BRAND_NAME}`,
    description: "Score a practical submission against its rubric, with feedback.",
  });
  const { data, isPending, isError, error } = useReviewSubmission(number);
  const toast = useToast();
  const claim = useClaimSubmission(number, {
    onError: (e) => toast({ title: "Not Claimed", description: refusal(e, e.message), variant: "destructive" }),
  });
  if (isPending)
    return (
      <PageContainer aria-busy="true">
        <Skeleton className="h-40" />
      </PageContainer>
    );
  if (isError || !data)
    return (
      <PageContainer className="py-20 text-center">
        <h1 className="text-3xl font-bold">Submission Not Available</h1>
        <p className="mt-3 text-muted">{refusal(error, "This submission could not be opened.")}</p>
      </PageContainer>
    );
  const reviewed = data.status === "passed" || data.status === "resubmit";
  return (
    <PageContainer className="max-w-3xl py-10">
      <Link to={paths.reviewQueue} className="text-sm text-brand-700 underline">
        Back to the queue
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Submission #{data.number}</h1>
      <p className="mt-1 text-muted">
        {data.courseTitle} · {data.rubric.title} · attempt {data.attempt} · sent {formatLongDate(data.submittedAt)}
      </p>
      {data.status === "submitted" && (
        <Button className="mt-4" onClick={() => claim.mutate()} disabled={claim.isPending}>
          Claim for Review
        </Button>
      )}
      {data.status === "in-review" && !data.claimedByMe && (
        <p className="mt-4 font-medium">Another assessor is reviewing this submission.</p>
      )}
      <Card className="mt-6 p-4">
        <h2 className="font-semibold">Written work</h2>
        <p className="mt-2 text-sm whitespace-pre-wrap" data-testid="submission-text">
          {data.text || "(no text: see the files)"}
        </p>
        <FileLinks files={data.files} className="mt-3 text-sm" />
      </Card>
      {data.earlierReviews.map((r) => (
        <Card key={r.attempt} className="mt-4 p-4">
          <h2 className="font-semibold">Review of attempt {r.attempt}</h2>
          <ReviewView rubric={data.rubric} review={r} />
        </Card>
      ))}
      {reviewed && data.review && (
        <Card className="mt-4 p-4">
          <h2 className="font-semibold">This submission's review</h2>
          <ReviewView rubric={data.rubric} review={data.review} />
        </Card>
      )}
      {data.status === "in-review" && data.claimedByMe && <ReviewForm submission={data} />}
      <RubricTable rubric={data.rubric} />
    </PageContainer>
  );
}
