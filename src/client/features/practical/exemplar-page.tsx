import { type Ref, useEffect, useRef } from "react";
import { Link } from "react-router";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import type { CalibrationExemplar } from "#shared/schemas/practical.ts";
import { useExemplar, useScoreExemplar } from "./api.ts";
import { CALIBRATION_PATH } from "./calibration-path.ts";
import { RubricTable } from "./rubric.tsx";
import { ScoreForm } from "./score-form.tsx";

/** The assessor's scores beside the agreed ones, and the rationale. */
function CalibrationResult({
  exemplar,
  headingRef,
}: {
  exemplar: CalibrationExemplar;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const result = exemplar.result;
  if (!result) return null;
  const label = (criterionId: string, points: number) =>
    exemplar.rubric.criteria.find((c) => c.id === criterionId)?.levels.find((l) => l.points === points)?.label ?? "";
  return (
    <Card className="mt-6 p-4" data-testid="calibration-result">
      <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold">
        {result.withinOne ? "Within one level on every criterion" : "More than one level off on a criterion"}
      </h2>
      <table className="mt-3 w-full text-left text-sm">
        <thead>
          <tr className="border-b border-line">
            <th className="p-2">Criterion</th>
            <th className="p-2">Your score</th>
            <th className="p-2">Agreed score</th>
            <th className="p-2">Within one level</th>
          </tr>
        </thead>
        <tbody>
          {result.criteria.map((c) => (
            <tr key={c.criterionId} className="border-b border-line">
              <td className="p-2">{exemplar.rubric.criteria.find((x) => x.id === c.criterionId)?.title}</td>
              <td className="p-2">
                {label(c.criterionId, c.mine)} ({c.mine})
              </td>
              <td className="p-2">
                {label(c.criterionId, c.agreed)} ({c.agreed})
              </td>
              <td className="p-2">{c.withinOne ? "Yes" : "No"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-sm">
        <span className="font-medium">Agreed decision:</span> {result.decision === "pass" ? "Pass" : "Resubmit"} (a{" "}
        {result.band} exemplar)
      </p>
      <p className="mt-1 text-sm">
        <span className="font-medium">Rationale:</span> {result.rationale}
      </p>
      <p className="mt-3 font-medium" role="status">
        {exemplar.calibrated
          ? "You are calibrated on this practical: its live queue is open."
          : "Not calibrated yet on this practical."}
      </p>
    </Card>
  );
}

/** An exemplar, scored in the same form as a live submission (docs/decisions/0053). */
export default function ExemplarPage({ courseId, exemplarId }: { courseId: string; exemplarId: string }) {
  const { data, isPending, isError, error } = useExemplar(courseId, exemplarId);
  useDocumentMeta({
    title: `Calibration Exemplar | ${BRAND_NAME}`,
    description: "Score an exemplar submission against the rubric and compare with the agreed scores.",
  });
  const toast = useToast();
  // The form is drawn afresh for each score, so focus goes to the result it produced, not to the page.
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const justScored = useRef(false);
  const score = useScoreExemplar(courseId, exemplarId, {
    onSuccess: () => toast({ title: "Exemplar Scored", description: "Compare your scores with the agreed ones." }),
  });
  const scoredAt = data?.result?.scoredAt;
  useEffect(() => {
    if (!scoredAt || !justScored.current) return;
    justScored.current = false;
    resultHeading.current?.focus();
  }, [scoredAt]);
  if (isPending)
    return (
      <PageContainer aria-busy="true">
        <Skeleton className="h-40" />
      </PageContainer>
    );
  if (isError || !data)
    return (
      <PageContainer className="py-20 text-center">
        <h1 className="text-3xl font-bold">Exemplar Not Available</h1>
        <p className="mt-3 text-muted">{refusal(error, "This exemplar could not be opened.")}</p>
      </PageContainer>
    );
  return (
    <PageContainer className="max-w-3xl py-10">
      <Link to={CALIBRATION_PATH} className="text-sm text-brand-700 underline">
        Back to calibration
      </Link>
      <h1 className="mt-4 text-3xl font-bold">Calibration exemplar {data.number}</h1>
      <p className="mt-1 text-muted">
        {data.courseTitle} · {data.rubric.title}. Score it as you would a live submission.
      </p>
      <Card className="mt-6 p-4">
        <h2 className="font-semibold">The submission</h2>
        <p className="mt-2 text-sm whitespace-pre-wrap" data-testid="submission-text">
          {data.text}
        </p>
      </Card>
      <CalibrationResult exemplar={data} headingRef={resultHeading} />
      <ScoreForm
        key={data.result?.scoredAt ?? "new"}
        rubric={data.rubric}
        pending={score.isPending}
        submitLabel={data.result ? "Score Again" : "Send Scores"}
        onScore={(input, refuse) => {
          justScored.current = true;
          score.mutate(input, { onError: (e) => refuse(refusal(e, e.message)) });
        }}
      />
      <RubricTable rubric={data.rubric} />
    </PageContainer>
  );
}
