import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, useFormError } from "#client/components/ui/form.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { PRACTICAL_STATE_TEXT, reviewTimeText, usePractical } from "#client/lib/practical.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { ASSESSED_BY_TEXT } from "#shared/practical-evidence.ts";
import type { LearnerPractical } from "#shared/schemas/practical.ts";
import { useSubmitPractical } from "./api.ts";
import { FileLinks } from "./file-links.tsx";
import { ReviewView, RubricTable } from "./rubric.tsx";

const ACCEPT =
  ".pdf,.txt,.mp3,.m4a,.wav,.ogg,.webm,.flac,.mp4,.mov,application/pdf,text/plain,audio/*,video/mp4,video/webm,video/quicktime";

function SubmissionForm({ practical }: { practical: LearnerPractical }) {
  const toast = useToast();
  const form = useFormError<"text" | "files" | "consent" | "redFlag">();
  const [text, setText] = useState("");
  const submit = useSubmitPractical(practical.courseId, {
    onSuccess: () => {
      setText("");
      toast({ title: "Practical Submitted", description: "An assessor will review your work." });
    },
    onError: (error) => form.show(refusal(error, error.message), "files"),
  });
  const { limits } = practical;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.clear();
    const data = new FormData(event.currentTarget);
    const files = data.getAll("files").filter((f): f is File => f instanceof File && f.size > 0);
    if (!data.get("consent"))
      return form.show("Confirm that you have anonymised any client before submitting.", "consent");
    if (!data.get("redFlag"))
      return form.show(
        "Confirm that no real red flag came up in this session, or that you stopped and are submitting nothing from it.",
        "redFlag",
      );
    const recording = files.some(
      (f) => /^(audio|video)\//.test(f.type) || /\.(mp3|m4a|wav|ogg|webm|flac|mp4|mov)$/i.test(f.name),
    );
    if (practical.rubric.evidence === "recording" && !recording)
      return form.show(
        "Attach the audio or video recording of the session (a transcript may go beside it, never instead of it).",
        "files",
      );
    if (!text.trim() && files.length === 0)
      return form.show("Write your work in the text box or attach at least one file.", "text");
    if (files.length > limits.maxFiles) return form.show(`Attach at most ${limits.maxFiles} files.`, "files");
    const big = files.find((f) => f.size > limits.maxFileBytes);
    if (big) return form.show(`'${big.name}' is larger than ${Math.round(limits.maxFileBytes / 1048576)} MB.`, "files");
    data.delete("files");
    for (const f of files) data.append("files", f);
    submit.mutate(data);
  };
  const textField = form.field("text");
  const filesField = form.field("files");
  const consentField = form.field("consent");
  const redFlagField = form.field("redFlag");
  return (
    <Card className="mt-8 p-5">
      <h2 className="text-xl font-semibold">
        {practical.state === "resubmit" ? "Submit your revised work" : "Submit your work"}
      </h2>
      <p className="mt-1 text-sm text-muted">
        {practical.submissionsLeft} submission{practical.submissionsLeft === 1 ? "" : "s"} left. Review usually takes{" "}
        {reviewTimeText(practical.expectedReviewDays)}.
      </p>
      <form className="mt-4 space-y-4" onSubmit={onSubmit} noValidate>
        <FormError id={form.errorId} message={form.message} />
        <div>
          <label htmlFor={textField.id} className="mb-1 block text-sm font-medium">
            Your written work
          </label>
          <textarea
            id={textField.id}
            name="text"
            rows={10}
            maxLength={limits.maxTextChars}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={[textField.errorId, `${textField.id}-count`].filter(Boolean).join(" ")}
            aria-invalid={!!textField.errorId}
            className="w-full rounded-lg border border-slate-300 p-3 text-base"
          />
          <p id={`${textField.id}-count`} className="text-xs text-muted">
            {text.length.toLocaleString("en-US")} of {limits.maxTextChars.toLocaleString("en-US")} characters
          </p>
        </div>
        <div>
          <label htmlFor={filesField.id} className="mb-1 block text-sm font-medium">
            Files (up to {limits.maxFiles}: PDF, plain text, audio or video, {Math.round(limits.maxFileBytes / 1048576)}{" "}
            MB each)
          </label>
          {practical.rubric.evidence === "recording" && (
            <p id={`${filesField.id}-hint`} className="mb-1 text-sm text-muted">
              Include the audio or video recording of the session: it is required. Your own transcript may go beside it.
            </p>
          )}
          <input
            id={filesField.id}
            name="files"
            type="file"
            multiple
            accept={ACCEPT}
            aria-describedby={
              [filesField.errorId, practical.rubric.evidence === "recording" ? `${filesField.id}-hint` : ""]
                .filter(Boolean)
                .join(" ") || undefined
            }
            aria-invalid={!!filesField.errorId}
            className="block w-full text-sm"
          />
        </div>
        <div className="flex items-start gap-2">
          <input
            id={consentField.id}
            name="consent"
            type="checkbox"
            value="yes"
            aria-describedby={consentField.errorId}
            aria-invalid={!!consentField.errorId}
            className="mt-1 h-5 w-5"
          />
          <label htmlFor={consentField.id} className="text-sm">
            I have anonymised any client or volunteer: no names or details that identify them.
          </label>
        </div>
        <div className="flex items-start gap-2">
          <input
            id={redFlagField.id}
            name="redFlag"
            type="checkbox"
            value="yes"
            aria-describedby={redFlagField.errorId}
            aria-invalid={!!redFlagField.errorId}
            className="mt-1 h-5 w-5"
          />
          <label htmlFor={redFlagField.id} className="text-sm">
            No real red flag came up in this session; if one had, I would have stopped, followed the referral or crisis
            steps above and submitted nothing from it.
          </label>
        </div>
        <Button type="submit" pending={submit.isPending}>
          {submit.isPending ? "Submitting..." : "Submit Practical"}
        </Button>
      </form>
    </Card>
  );
}

/** What to do when a volunteer discloses a real red flag: on every practical's page, above the form. */
function RedFlagSteps({ steps }: { steps: string }) {
  if (!steps) return null;
  return (
    <section aria-labelledby="red-flag-heading" className="mt-6 rounded-xl border-2 border-red-700 bg-red-50 p-4">
      <h2 id="red-flag-heading" className="text-lg font-semibold text-red-900">
        If a volunteer discloses a real red flag
      </h2>
      <p className="mt-1 text-sm">{steps}</p>
    </section>
  );
}

/** The learner's result says who assessed it in general terms: never the assessor's name. */
export function AssessedBy() {
  return (
    <p className="mt-4 text-sm" data-testid="assessed-by">
      {ASSESSED_BY_TEXT}
    </p>
  );
}

function Submissions({ practical }: { practical: LearnerPractical }) {
  if (practical.submissions.length === 0) return null;
  return (
    <section aria-labelledby="submissions-heading" className="mt-8">
      <h2 id="submissions-heading" className="text-xl font-semibold">
        Your submissions
      </h2>
      <ol className="mt-3 space-y-4">
        {[...practical.submissions].reverse().map((s) => (
          <li key={s.number}>
            <Card className="p-4">
              <p className="text-sm text-muted">
                Submission {s.attempt} · sent {formatLongDate(s.submittedAt)} ·{" "}
                {s.status === "submitted" || s.status === "in-review" ? "waiting for review" : "reviewed"}
              </p>
              <FileLinks files={s.files} className="mt-2 text-sm" />
              {s.review && <ReviewView rubric={practical.rubric} review={s.review} />}
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}

export default function PracticalPage() {
  const { courseId = "" } = useParams();
  const { data: practical, isPending, isError, error } = usePractical(courseId);
  useDocumentMeta({
    title: `${practical?.rubric.title ?? "Practical assessment"} | ${BRAND_NAME}`,
    description: `The course's practical skills assessment: the brief, the rubric and your submission.`,
  });
  if (isPending)
    return (
      <PageContainer aria-busy="true">
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="mt-4 h-40" />
      </PageContainer>
    );
  if (isError || !practical)
    return (
      <PageContainer className="py-20 text-center">
        <h1 className="text-3xl font-bold">Practical Not Available</h1>
        <p className="mt-3 text-muted">{refusal(error, "This practical assessment could not be opened.")}</p>
        <Link to={paths.course(courseId)} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Course
        </Link>
      </PageContainer>
    );
  const canSubmit = practical.state === "open" || practical.state === "resubmit";
  const reviewed = practical.submissions.some((sub) => sub.review);
  return (
    <PageContainer className="max-w-3xl py-10">
      <Link to={paths.course(courseId)} className="text-sm text-brand-700 underline">
        Back to {practical.courseTitle}
      </Link>
      <p className="mt-4 text-xs font-semibold tracking-wide text-muted uppercase">Practical skills assessment</p>
      <h1 className="text-3xl font-bold">{practical.rubric.title}</h1>
      <p className="mt-2 rounded-lg bg-slate-100 p-3 font-medium" role="status" data-testid="practical-state">
        {PRACTICAL_STATE_TEXT[practical.state]}
        {practical.state === "waiting" && ` (usually ${reviewTimeText(practical.expectedReviewDays)})`}
      </p>
      {/* After a review the result and the assessor's comments come first; the brief follows. */}
      {reviewed && (
        <>
          {practical.state === "passed" && <AssessedBy />}
          <Submissions practical={practical} />
        </>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the brief is sanitised with the lessons' allow-list on import. */}
      <article className="prose-lesson mt-6" dangerouslySetInnerHTML={{ __html: practical.rubric.briefHtml }} />
      <RedFlagSteps steps={practical.rubric.redFlagSteps} />
      {!reviewed && practical.state === "passed" && <AssessedBy />}
      {canSubmit && <SubmissionForm practical={practical} />}
      {!reviewed && <Submissions practical={practical} />}
      <RubricTable rubric={practical.rubric} />
    </PageContainer>
  );
}
