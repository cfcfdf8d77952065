import type { PracticalRubric, PracticalSubmission } from "#shared/schemas/practical.ts";

/** The rubric: each criterion with its levels, points and descriptors, and the pass rule. */
export function RubricTable({ rubric }: { rubric: PracticalRubric }) {
  return (
    <section aria-labelledby="rubric-heading" className="mt-8">
      <h2 id="rubric-heading" className="text-xl font-semibold">
        How it is scored
      </h2>
      <p className="mt-1 text-sm text-muted">Pass: {rubric.passRuleText}.</p>
      <div className="mt-3 space-y-4">
        {rubric.criteria.map((c) => (
          <div key={c.id} className="rounded-xl border border-line bg-white p-4">
            <h3 className="font-semibold">
              {c.title}
              {c.critical && (
                <span className="ml-2 text-sm font-normal text-muted">(critical: below Competent fails)</span>
              )}
            </h3>
            <p className="text-sm text-muted">{c.description}</p>
            <ul className="mt-2 grid gap-2 sm:grid-cols-2">
              {c.levels.map((l) => (
                <li key={l.points} className="rounded-lg bg-slate-50 p-2 text-sm">
                  <span className="font-semibold">
                    {l.label} ({l.points} {l.points === 1 ? "point" : "points"})
                  </span>
                  : {l.descriptor}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

/** An assessor's review as the learner (or a later assessor) reads it. */
export function ReviewView({
  rubric,
  review,
}: {
  rubric: PracticalRubric;
  review: NonNullable<PracticalSubmission["review"]>;
}) {
  return (
    <div className="mt-3 space-y-2" data-testid="review">
      <p className="font-semibold">
        {review.decision === "pass" ? "Passed" : "Resubmission requested"}: {review.points} of {review.maxPoints} points
      </p>
      <ul className="space-y-1 text-sm">
        {review.scores.map((s) => {
          const criterion = rubric.criteria.find((c) => c.id === s.criterionId);
          const level = criterion?.levels.find((l) => l.points === s.points);
          return (
            <li key={s.criterionId}>
              <span className="font-medium">{criterion?.title ?? s.criterionId}</span>: {level?.label ?? ""} ({s.points}
              ){" - "}
              {s.comment}
            </li>
          );
        })}
      </ul>
      <p className="text-sm">
        <span className="font-medium">Feedback:</span> {review.feedback}
      </p>
    </div>
  );
}
