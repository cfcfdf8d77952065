import { useState } from "react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME, PASS_MARK } from "#shared/constants.ts";
import { AssessmentRunner, Screen } from "./assessment-runner.tsx";

/** The final exam. Its questions are drawn (and a timed exam's clock starts) only when the learner starts. */
export default function ExamPage() {
  const { courseId = "" } = useParams();
  const [started, setStarted] = useState(false);
  useDocumentMeta({
    title: `Final exam | ${BRAND_NAME}`,
    description: `The final exam of a ${BRAND_NAME} course: questions from every module.`,
  });
  if (started) return <AssessmentRunner courseId={courseId} moduleId={null} />;
  return (
    <Screen
      title="Final exam"
      text={`The exam draws questions from every module of the course. You need ${PASS_MARK}% to pass. If the exam is timed, the clock starts when you start, and an attempt you have already started resumes where you left it.`}
    >
      <Link to={paths.course(courseId)} className={buttonClasses("secondary")}>
        Back to Course
      </Link>
      <Button onClick={() => setStarted(true)}>Start Exam</Button>
    </Screen>
  );
}
