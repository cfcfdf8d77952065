import { type ReactNode, useState } from "react";
import { Link, useParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatMinutes } from "#shared/format.ts";
import type { ExamRules } from "#shared/schemas/learning.ts";
import { useExamRules } from "./api.ts";
import { AssessmentRunner, ErrorScreen, formatWhen } from "./assessment-runner.tsx";

function TimeRule({ rules }: { rules: ExamRules }) {
  if (rules.timeLimitMinutes === null || rules.yourTimeLimitMinutes === null) return <>No time limit</>;
  if (rules.timeMultiplier === 1) return <>{formatMinutes(rules.yourTimeLimitMinutes)}</>;
  return (
    <>
      {formatMinutes(rules.yourTimeLimitMinutes)}{" "}
      <span className="font-normal text-muted">
        (your extra time: {formatMinutes(rules.timeLimitMinutes)} × {rules.timeMultiplier})
      </span>
    </>
  );
}

/** The intro's place while its rules load. */
export function ExamIntroSkeleton() {
  return (
    <PageContainer className="max-w-2xl py-16" aria-busy="true">
      <Skeleton className="mx-auto h-9 w-1/2" />
      <Skeleton className="mt-6 h-48" />
    </PageContainer>
  );
}

/**
 * The rules before Start: questions, the learner's own time limit, pass mark and attempts left (the
 * final exam's, and the recertification exam's with its own lead, back link and Start label).
 */
export function ExamIntro({
  rules,
  onStart,
  lead = "The exam draws questions from every module of the course, one at a time. You can go back to earlier questions and review your answers before you submit.",
  back = { to: paths.course(rules.courseId), label: "Back to Course" },
  startLabel = "Start Exam",
}: {
  rules: ExamRules;
  onStart: () => void;
  lead?: ReactNode;
  back?: { to: string; label: string };
  startLabel?: string;
}) {
  const noAttempts = rules.attemptsLeft === 0 && !rules.inProgress;
  return (
    <PageContainer className="max-w-2xl py-16">
      <h1 className="text-center text-3xl font-bold">{rules.title}</h1>
      <div className="mt-3 text-center text-muted">{lead}</div>
      <Card className="mt-6 p-6">
        <h2 className="text-lg font-semibold">Before you start</h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]" data-testid="exam-rules">
          <dt className="text-muted">Questions</dt>
          <dd className="font-semibold">{rules.questionCount}</dd>
          <dt className="text-muted">Time limit</dt>
          <dd className="font-semibold">
            <TimeRule rules={rules} />
          </dd>
          <dt className="text-muted">Pass mark</dt>
          <dd className="font-semibold">{rules.passMark}%</dd>
          <dt className="text-muted">Attempts left</dt>
          <dd className="font-semibold">
            {rules.attemptsLeft} of {rules.maxAttempts}
          </dd>
        </dl>
        {rules.previous && (
          <p className="mt-3 text-sm text-muted">
            Your best score so far: {rules.previous.bestScore}% ({rules.previous.attempts} attempt
            {rules.previous.attempts === 1 ? "" : "s"}).
          </p>
        )}
        <p className="mt-3 text-sm">
          {rules.inProgress
            ? "You have already started an attempt: it resumes where you left it" +
              (rules.inProgress.deadlineAt
                ? ", and its clock has kept running. Extra time given after you started applies from your next attempt."
                : ".")
            : rules.timeLimitMinutes !== null
              ? `The clock starts when you press ${startLabel} and keeps running if you leave the page. Extra time an administrator gives you applies from your next attempt.`
              : "Take the time you need; your attempt is kept if you leave the page."}
        </p>
        {noAttempts && (
          <p className="mt-3 font-medium" data-testid="attempts-left">
            No attempts left.
            {rules.nextAttemptAt && ` Your next attempt opens on ${formatWhen(rules.nextAttemptAt)}.`}
          </p>
        )}
      </Card>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to={back.to} className={buttonClasses("secondary")}>
          {back.label}
        </Link>
        {!noAttempts && <Button onClick={onStart}>{rules.inProgress ? "Resume Exam" : startLabel}</Button>}
      </div>
    </PageContainer>
  );
}

/** The final exam. Its questions are drawn (and a timed exam's clock starts) only when the learner starts. */
export default function ExamPage() {
  const { courseId = "" } = useParams();
  const [started, setStarted] = useState(false);
  const rules = useExamRules(courseId);
  useDocumentMeta({
    title: `Final exam | ${BRAND_NAME}`,
    description: `The final exam of a ${BRAND_NAME} course: questions from every module.`,
  });
  // Started from the intro: focus goes to the first question whenever Start is pressed.
  if (started) return <AssessmentRunner courseId={courseId} moduleId={null} startedByLearner />;
  if (rules.isPending) return <ExamIntroSkeleton />;
  if (rules.isError) return <ErrorScreen error={rules.error} kind="exam" courseId={courseId} />;
  return <ExamIntro rules={rules.data} onStart={() => setStarted(true)} />;
}
