import { type FormEvent, type ReactNode, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, useFormError } from "#client/components/ui/form.tsx";
import type { PracticalRubric, ReviewInput } from "#shared/schemas/practical.ts";

/**
 * Per-criterion level and comment, overall feedback and the decision: the one review form, for live
 * submissions and for calibration exemplars alike (docs/decisions/0053).
 */
export function ScoreForm({
  rubric,
  pending,
  submitLabel,
  onScore,
  children,
}: {
  rubric: PracticalRubric;
  pending: boolean;
  submitLabel: string;
  /** Sends the scores; `refuse` shows the server's refusal by the form and moves focus to it. */
  onScore: (input: ReviewInput, refuse: (message: string) => void) => void;
  /** More buttons beside the submit one. */
  children?: ReactNode;
}) {
  const form = useFormError<"feedback">();
  const [points, setPoints] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const [feedback, setFeedback] = useState("");
  const [decision, setDecision] = useState<"pass" | "resubmit">("resubmit");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.clear();
    const scores = [];
    for (const c of rubric.criteria) {
      const [chosen, comment] = [points[c.id], comments[c.id]];
      if (chosen === undefined || !comment?.trim())
        return form.show(`Choose a level and write a comment for "${c.title}".`, "feedback");
      scores.push({ criterionId: c.id, points: chosen, comment });
    }
    onScore({ scores, feedback, decision }, (message) => form.show(message, "feedback"));
  };
  const feedbackField = form.field("feedback");
  const message = form.message;
  return (
    <form className="mt-8 space-y-5" onSubmit={onSubmit} noValidate>
      <h2 className="text-xl font-semibold">Your review</h2>
      {rubric.criteria.map((c) => (
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
          aria-describedby={message ? form.errorId : undefined}
          aria-invalid={!!message}
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
      <FormError id={form.errorId} message={message} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" pending={pending}>
          {pending ? "Sending..." : submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}
