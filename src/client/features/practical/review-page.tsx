import { Link, useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import type { ReviewSubmission } from "#shared/schemas/practical.ts";
import { useClaimSubmission, useReleaseSubmission, useReviewSubmission, useSubmitReview } from "./api.ts";
import { FileLinks, Recordings } from "./file-links.tsx";
import { ReviewView, RubricTable } from "./rubric.tsx";
import { ScoreForm } from "./score-form.tsx";

/** The live review: the shared score form, sending the mark, and giving the submission back. */
function ReviewForm({ submission }: { submission: ReviewSubmission }) {
  const toast = useToast();
  const review = useSubmitReview(submission.number, {
    onSuccess: (data) =>
      toast({
        title: "Review Sent",
        description: data.review
          ? `Submission #${submission.number}: the learner is told by e-mail.`
          : `Submission #${submission.number}: another assessor marks it next; the learner gets one result.`,
      }),
  });
  const release = useReleaseSubmission(submission.number);
  return (
    <ScoreForm
      rubric={submission.rubric}
      pending={review.isPending}
      submitLabel="Send Review"
      onScore={(input, refuse) => review.mutate(input, { onError: (error) => refuse(refusal(error, error.message)) })}
    >
      <Button type="button" variant="secondary" pending={release.isPending} onClick={() => release.mutate()}>
        Give Back to Queue
      </Button>
    </ScoreForm>
  );
}

/** What this mark is: a blind second mark, or the deciding one after two marks disagreed. */
function StageNotice({ submission }: { submission: ReviewSubmission }) {
  if (submission.stage === "first") return null;
  return (
    <p className="mt-4 rounded-lg border border-line bg-slate-50 p-3 text-sm" data-testid="marking-stage">
      {submission.stage === "second"
        ? "Second mark, blind: another assessor has marked this submission. Mark it on its own; the learner gets one result."
        : "Deciding mark: two assessors disagreed on the decision or by more than one level on a criterion. Their marks are below; your mark is the learner's result."}
    </p>
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
        <Button className="mt-4" onClick={() => claim.mutate()} pending={claim.isPending}>
          Claim for Review
        </Button>
      )}
      {data.status === "in-review" && !data.claimedByMe && (
        <p className="mt-4 font-medium">Another assessor is reviewing this submission.</p>
      )}
      <StageNotice submission={data} />
      <Recordings files={data.files} />
      <Card className="mt-6 p-4">
        <h2 className="font-semibold">Written work</h2>
        <p className="mt-2 text-sm whitespace-pre-wrap" data-testid="submission-text">
          {data.text || "(no text: see the files)"}
        </p>
        <FileLinks files={data.files} className="mt-3 text-sm" />
      </Card>
      {data.marks.map((m) => (
        <Card key={`mark-${m.round}`} className="mt-4 p-4">
          <h2 className="font-semibold">{m.round === 1 ? "First mark" : "Second mark"}</h2>
          <ReviewView rubric={data.rubric} review={m} />
        </Card>
      ))}
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
