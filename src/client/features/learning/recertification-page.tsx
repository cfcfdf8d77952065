import { useState } from "react";
import { useParams } from "react-router";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { RECERTIFICATION, useRecertificationRules } from "./api.ts";
import { AssessmentRunner, ErrorScreen } from "./assessment-runner.tsx";
import { ExamIntro, ExamIntroSkeleton } from "./exam-page.tsx";
import type { NextStep } from "./next-step.ts";

const afterPass: NextStep = {
  href: paths.certificates,
  label: "Back to My Certificates",
  passedText: "You passed: your certificate is renewed and its credential re-issued with the new dates.",
};

/**
 * The recertification exam: the final exam's rules for this learner before Start (their own time
 * limit, questions, pass mark, attempts left), drawn and timed only when they start; focus then goes
 * to the first question, as in the final exam.
 */
export default function RecertificationPage() {
  const { courseId = "" } = useParams();
  const [started, setStarted] = useState(false);
  const rules = useRecertificationRules(courseId);
  useDocumentMeta({
    title: `Recertification exam | ${BRAND_NAME}`,
    description: `Renew a ${BRAND_NAME} certificate by passing its recertification exam.`,
  });
  if (started)
    return (
      <AssessmentRunner courseId={courseId} moduleId={RECERTIFICATION} nextStep={() => afterPass} startedByLearner />
    );
  if (rules.isPending) return <ExamIntroSkeleton />;
  if (rules.isError) return <ErrorScreen error={rules.error} kind="exam" courseId={courseId} />;
  const r = rules.data;
  return (
    <ExamIntro
      rules={r}
      onStart={() => setStarted(true)}
      startLabel="Start Recertification Exam"
      back={{ to: paths.certificates, label: "Back to My Certificates" }}
      lead={
        <>
          <p>
            Renew your certificate <span className="font-mono break-all">{r.certificateId}</span> for {r.courseTitle} (
            {new Date(r.expiresAt).getTime() < Date.now() ? "expired" : "expires"} on {formatLongDate(r.expiresAt)}) by
            passing this timed exam, free of charge.
          </p>
          <p className="mt-2">
            It draws questions from every module of the course, under the final exam&apos;s rules. A pass extends your
            certificate by a full validity period from its current expiry date (or from today, if it has already
            expired).
          </p>
        </>
      }
    />
  );
}
