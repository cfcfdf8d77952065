import { useState } from "react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import { RECERTIFICATION } from "./api.ts";
import { AssessmentRunner, Screen } from "./assessment-runner.tsx";
import type { NextStep } from "./next-step.ts";

const afterPass: NextStep = {
  href: paths.certificates,
  label: "Back to My Certificates",
  passedText: "You passed: your certificate is renewed and its credential re-issued with the new dates.",
};

/** The recertification exam: drawn and timed like the final exam, only when the learner starts. */
export default function RecertificationPage() {
  const { courseId = "" } = useParams();
  const [started, setStarted] = useState(false);
  useDocumentMeta({
    title: `Recertification exam | ${BRAND_NAME}`,
    description: `Renew a ${BRAND_NAME} certificate by passing its recertification exam.`,
  });
  if (started) return <AssessmentRunner courseId={courseId} moduleId={RECERTIFICATION} nextStep={() => afterPass} />;
  return (
    <Screen
      title="Recertification exam"
      text={`Renew your certificate by passing this timed exam, free of charge. It draws questions from every module of the course; you need ${PASS_MARK}% to pass, with the same attempts and waiting time as the final exam. A pass extends your certificate by a full validity period from its current expiry date (or from today, if it has already expired).`}
    >
      <Link to={paths.certificates} className={buttonClasses("secondary")}>
        Back to My Certificates
      </Link>
      <Button onClick={() => setStarted(true)}>Start Recertification Exam</Button>
    </Screen>
  );
}
