import { CheckCircle2, Clock, Flag, XCircle } from "lucide-react";
import { RadioGroup } from "radix-ui";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { Card, PageContainer, ProgressBar, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError, refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { attemptRefusedSchema, type Quiz, type QuizResult } from "#shared/schemas/learning.ts";
import { RECERTIFICATION, useStartAssessment, useSubmitAssessment } from "./api.ts";
import type { NextStep } from "./next-step.ts";

export function Screen({ title, text, children }: { title: string; text: string; children?: React.ReactNode }) {
  return (
    <PageContainer className="max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-muted">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>
    </PageContainer>
  );
}

export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "long", timeStyle: "short" });

/** "2 attempts left" / "next attempt opens ..." under a result or a quiz. */
function AttemptsNote({ attemptsLeft, nextAttemptAt }: { attemptsLeft: number | null; nextAttemptAt?: string | null }) {
  if (attemptsLeft === null) return null;
  return (
    <p className="mt-2 text-sm text-muted" data-testid="attempts-left">
      {attemptsLeft > 0
        ? `${attemptsLeft} attempt${attemptsLeft === 1 ? "" : "s"} left`
        : nextAttemptAt
          ? `No attempts left. Your next attempt opens on ${formatWhen(nextAttemptAt)}.`
          : "No attempts left."}
    </p>
  );
}

function Result({
  quiz,
  result,
  next,
  onRetake,
}: {
  quiz: Quiz;
  result: QuizResult;
  next: NextStep | null;
  onRetake: () => void;
}) {
  const courseId = quiz.courseId;
  const questionOf = (id: string) => quiz.questions.find((q) => q.id === id);
  const canRetake = result.attemptsLeft === null || result.attemptsLeft > 0;
  const what = quiz.kind === "exam" ? "exam" : "quiz";
  const heading = useRef<HTMLHeadingElement>(null);
  // Submitting replaces the questions with the result: its heading takes focus, so the next Tab stays here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <PageContainer className="max-w-3xl">
      <Card className="p-6 text-center sm:p-8">
        {result.passed ? (
          <CheckCircle2 className="mx-auto text-green-700" size={48} aria-hidden="true" />
        ) : (
          <XCircle className="mx-auto text-amber-600" size={48} aria-hidden="true" />
        )}
        <h1 ref={heading} tabIndex={-1} className="mt-3 text-3xl font-bold">
          {quiz.kind === "exam" ? "Exam Complete!" : "Quiz Complete!"}
        </h1>
        <p className="mt-2">
          <span className="block text-sm font-medium text-muted">Your score</span>{" "}
          <span className="text-5xl font-bold text-brand-800" data-testid="quiz-score">
            {result.score}%
          </span>
        </p>
        <dl className="mt-4 flex flex-wrap justify-center gap-x-8 gap-y-2 text-sm">
          <div>
            <dt className="text-muted">Correct</dt>
            <dd className="text-xl font-semibold text-green-800">{result.correctCount}</dd>
          </div>
          <div>
            <dt className="text-muted">Incorrect</dt>
            <dd className="text-xl font-semibold text-red-800">{result.incorrectCount}</dd>
          </div>
          <div>
            <dt className="text-muted">Pass mark</dt>
            <dd className="text-xl font-semibold">{result.passMark}%</dd>
          </div>
        </dl>
        <p className="mt-4 font-medium">
          {result.passed
            ? quiz.recorded
              ? quiz.kind === "exam"
                ? (next?.passedText ?? "You passed the final exam.")
                : "You passed: this module is complete."
              : "You passed this preview quiz. Enrol to record your progress and see the answers with their explanations."
            : `You need ${result.passMark}% to pass. Review the lessons below and try again.`}
        </p>
        {!result.passed && <AttemptsNote attemptsLeft={result.attemptsLeft} nextAttemptAt={result.nextAttemptAt} />}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {result.passed
            ? next && (
                <Link to={next.href} className={buttonClasses("primary")}>
                  {next.label}
                </Link>
              )
            : canRetake && <Button onClick={onRetake}>{quiz.kind === "exam" ? "Retake Exam" : "Retake Quiz"}</Button>}
          <Link to={paths.course(courseId)} className={buttonClasses(result.passed && !next ? "primary" : "secondary")}>
            Back to Course
          </Link>
        </div>
      </Card>
      {result.passed && result.review.length > 0 ? (
        <section className="mt-8" aria-labelledby="review-heading">
          <h2 id="review-heading" className="text-xl font-bold">
            Answers and explanations
          </h2>
          <ol className="mt-4 space-y-3">
            {result.review.map((item, i) => {
              const q = questionOf(item.questionId);
              return (
                <li key={item.questionId}>
                  <Card className="p-4">
                    <p className="flex items-start gap-2 font-medium">
                      {item.correct ? (
                        <CheckCircle2 className="mt-0.5 shrink-0 text-green-700" size={18} aria-label="Correct" />
                      ) : (
                        <XCircle className="mt-0.5 shrink-0 text-red-700" size={18} aria-label="Incorrect" />
                      )}
                      <span>
                        {i + 1}. {q?.question}
                      </span>
                    </p>
                    <p className="mt-2 text-sm">
                      <span className="font-semibold">Correct answer:</span>{" "}
                      {q?.options.find((o) => o.id === item.correctAnswer)?.text}
                    </p>
                    <p className="mt-1 text-sm text-muted">{item.explanation}</p>
                  </Card>
                </li>
              );
            })}
          </ol>
        </section>
      ) : result.passed ? null : (
        <section className="mt-8" aria-labelledby="revisit-heading">
          <h2 id="revisit-heading" className="text-xl font-bold">
            Lessons to revisit
          </h2>
          <p className="mt-1 text-sm text-muted">
            The questions of this {what} came from these lessons. Read them again before your next attempt.
          </p>
          <ul className="mt-4 space-y-2">
            {result.lessonsToRevisit.map((l) => (
              <li key={l.id}>
                <Link to={paths.lesson(courseId, l.id)} className="text-brand-800 underline underline-offset-2">
                  {l.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </PageContainer>
  );
}

/** Minutes before the end at which the time left is announced; 0 is "time is up". */
const ANNOUNCE_AT_MINUTES = [10, 5, 1, 0];
/** The last announcement point reached with this many seconds left, or null before the first. */
const markReached = (seconds: number) => ANNOUNCE_AT_MINUTES.filter((m) => seconds <= m * 60).at(-1) ?? null;
const announcementFor = (mark: number) =>
  mark === 0 ? "Time is up. Submit your answers now." : `${mark} minute${mark === 1 ? "" : "s"} left in this exam.`;

/**
 * The clock, shown every second but announced (politely) only at 10, 5 and 1 minutes left and when
 * time is up: a point already passed when the page opens is not announced.
 */
function TimeLeft({ deadlineAt }: { deadlineAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.floor((new Date(deadlineAt).getTime() - now) / 1000));
  const lastMark = useRef(markReached(seconds));
  const [announcement, setAnnouncement] = useState("");
  const mark = markReached(seconds);
  useEffect(() => {
    if (mark === null || mark === lastMark.current) return;
    lastMark.current = mark;
    setAnnouncement(announcementFor(mark));
  }, [mark]);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return (
    <>
      <p className="flex items-center gap-1 text-sm font-medium" data-testid="time-left">
        <Clock size={16} aria-hidden="true" />
        {seconds > 0 ? `Time left: ${text}` : "Time is up: submit now."}
      </p>
      {/* The same warnings for sighted learners, drawn at each point reached (not a live region:
          the announcer below speaks them once). */}
      {mark !== null && mark > 0 && (
        <p
          className="rounded-md border border-amber-700 bg-amber-50 px-2 py-1 text-sm font-semibold text-amber-900"
          data-testid="time-warning"
        >
          {announcementFor(mark)}
        </p>
      )}
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="time-announcement">
        {announcement}
      </p>
    </>
  );
}

/** Errors shared by quizzes and the exam: not found, purchase needed, locked, out of attempts. */
export function ErrorScreen({ error, kind, courseId }: { error: Error; kind: "quiz" | "exam"; courseId: string }) {
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof ApiError ? error.serverMessage : undefined;
  const back = (
    <Link to={paths.course(courseId)} className={buttonClasses("primary")}>
      Back to Course
    </Link>
  );
  if (status === 404)
    return kind === "exam" ? (
      <Screen title="Exam Not Found" text="This course has no final exam.">
        {back}
      </Screen>
    ) : (
      <Screen title="Quiz Not Found" text="This quiz could not be found in the course.">
        {back}
      </Screen>
    );
  if (status === 401 || (status === 403 && message?.startsWith("You need to purchase"))) {
    return (
      <Screen
        title={kind === "exam" ? "Exam Access Restricted" : "Quiz Access Restricted"}
        text="You need to purchase this course to access quizzes and track your progress."
      >
        <Link to={paths.course(courseId)} className={buttonClasses("secondary")}>
          Back to Course Preview
        </Link>
        <Link to={paths.checkout(courseId)} className={buttonClasses("primary")}>
          Purchase Course
        </Link>
      </Screen>
    );
  }
  if (status === 403)
    return (
      <Screen
        title={kind === "exam" ? "Exam Locked" : "Quiz Locked"}
        text={message ?? "Complete the previous module first."}
      >
        {back}
      </Screen>
    );
  if (status === 429 && error instanceof ApiError) {
    const refusal = attemptRefusedSchema.safeParse(JSON.parse(error.body));
    const nextAttemptAt = refusal.success ? refusal.data.nextAttemptAt : undefined;
    return (
      <Screen
        title="No Attempts Left"
        text={
          nextAttemptAt
            ? `You have used every attempt for now. Your next attempt opens on ${formatWhen(nextAttemptAt)}.`
            : (message ?? "You have used every attempt for now.")
        }
      >
        {back}
      </Screen>
    );
  }
  return (
    <Screen title={kind === "exam" ? "Exam could not be loaded" : "Quiz could not be loaded"} text={error.message}>
      {back}
    </Screen>
  );
}

type Status = "answered" | "flagged" | "unanswered";
const statusText: Record<Status, string> = {
  answered: "Answered",
  flagged: "Answered, flagged for review",
  unanswered: "Not answered",
};

/** Before the final Submit: every question's state, a way back to each, then Submit. */
function ReviewStep({
  quiz,
  statusOf,
  heading,
  onGoTo,
  onSubmit,
  submitting,
}: {
  quiz: Quiz;
  statusOf: (questionId: string) => Status;
  heading: React.RefObject<HTMLHeadingElement | null>;
  onGoTo: (index: number) => void;
  onSubmit: () => void;
  submitting: boolean;
}) {
  const statuses = quiz.questions.map((q) => statusOf(q.id));
  const unanswered = statuses.filter((x) => x === "unanswered").length;
  const flagged = statuses.filter((x) => x === "flagged").length;
  const what = quiz.kind === "exam" ? "exam" : "quiz";
  return (
    <section className="mt-6" aria-labelledby="review-step-heading">
      <h2 ref={heading} tabIndex={-1} id="review-step-heading" className="text-xl font-bold">
        Review your answers
      </h2>
      <p className="mt-1 text-sm" data-testid="review-summary">
        {unanswered > 0
          ? `${unanswered} of ${statuses.length} questions not answered yet: answer every question to submit.`
          : `All ${statuses.length} questions answered.`}
        {flagged > 0 && ` ${flagged} flagged for review.`} Your {what} is graded only when you submit.
      </p>
      <ol className="mt-4 space-y-2">
        {quiz.questions.map((q, i) => (
          <li key={q.id}>
            <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {i + 1}. {q.question}
                </p>
                <p
                  className={`mt-1 text-sm ${statusOf(q.id) === "answered" ? "text-muted" : "font-semibold text-amber-800"}`}
                >
                  {statusOf(q.id) === "flagged" && <Flag className="mr-1 inline" size={14} aria-hidden="true" />}
                  {statusText[statusOf(q.id)]}
                </p>
              </div>
              <Button variant="secondary" size="sm" onClick={() => onGoTo(i)}>
                Go to question {i + 1}
              </Button>
            </Card>
          </li>
        ))}
      </ol>
      <div className="mt-6 flex flex-wrap justify-between gap-3">
        <Button variant="secondary" onClick={() => onGoTo(quiz.questions.length - 1)}>
          Back to questions
        </Button>
        <Button onClick={onSubmit} disabled={unanswered > 0} pending={submitting} className="ml-auto">
          {submitting ? "Submitting..." : quiz.kind === "exam" ? "Submit Exam" : "Submit Quiz"}
        </Button>
      </div>
    </section>
  );
}

/**
 * One attempt at a module quiz (`moduleId`) or the final exam (`moduleId` null): the server draws the
 * questions; reloading resumes the same attempt; a review step lists every question's state before the
 * final Submit; the result shows a review only after a pass.
 */
export function AssessmentRunner({
  courseId,
  moduleId,
  nextStep,
  startedByLearner = false,
}: {
  courseId: string;
  moduleId: string | null;
  /** Where a pass leads on, if anywhere but back to the course. */
  nextStep?: (quiz: Quiz) => NextStep | null;
  /** Opened by a Start button on the same page: no "retake?" question, and focus goes to the first question. */
  startedByLearner?: boolean;
}) {
  const kind = moduleId === null || moduleId === RECERTIFICATION ? "exam" : "quiz";
  // Opening the runner starts (or resumes) the attempt, once: a start is a POST from this page.
  const query = useStartAssessment(courseId, moduleId);
  const startAttempt = query.mutate;
  const startedOnce = useRef(false);
  useEffect(() => {
    if (startedOnce.current) return;
    startedOnce.current = true;
    startAttempt();
  }, [startAttempt]);
  const toast = useToast();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [flagged, setFlagged] = useState<Set<string>>(() => new Set());
  const [index, setIndex] = useState(0);
  const [reviewing, setReviewing] = useState(false);
  const [reviewedOnce, setReviewedOnce] = useState(false);
  const [retaking, setRetaking] = useState(startedByLearner);
  const [result, setResult] = useState<QuizResult | null>(null);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const reviewHeading = useRef<HTMLHeadingElement>(null);
  // Next, Previous, Retake, Start and the review step move focus to what they show (not on first
  // load: the page heading has it). After every render, because a question shows only once its draw
  // is in; before paint, so the route's own heading focus never wins over it.
  const moveFocus = useRef(startedByLearner);
  useLayoutEffect(() => {
    if (!moveFocus.current) return;
    const target = reviewing ? reviewHeading.current : questionHeading.current;
    if (!target) return;
    moveFocus.current = false;
    target.focus();
  });
  const goTo = (next: number) => {
    moveFocus.current = true;
    setReviewing(false);
    setIndex(next);
  };
  const openReview = () => {
    moveFocus.current = true;
    setReviewing(true);
    setReviewedOnce(true);
  };
  useDocumentMeta({
    title: `${query.data?.title ?? (kind === "exam" ? "Final exam" : "Quiz")} | ${BRAND_NAME}`,
    description:
      kind === "exam"
        ? `The final exam of a ${BRAND_NAME} course: questions from every module.`
        : `${query.data?.title ?? "Module quiz"}: check what you learned in this module of a ${BRAND_NAME} course.`,
  });

  const submit = useSubmitAssessment(courseId, moduleId, {
    onSuccess: (r) => {
      setResult(r);
      toast({ title: kind === "exam" ? "Exam Completed!" : "Quiz Completed!", description: `You scored ${r.score}%` });
      window.scrollTo({ top: 0 });
    },
    onError: (error) =>
      toast({
        title: kind === "exam" ? "Exam Not Submitted" : "Quiz Not Submitted",
        description: refusal(error, error.message),
        variant: "destructive",
      }),
  });

  const restart = () => {
    moveFocus.current = true;
    setAnswers({});
    setFlagged(new Set());
    setIndex(0);
    setReviewing(false);
    setReviewedOnce(false);
    setRetaking(true);
    setResult(null);
    // A new attempt: the server draws new questions once the last one is graded.
    if (result) startAttempt();
  };

  if (query.isIdle || query.isPending) {
    return (
      <PageContainer className="max-w-3xl" aria-busy="true">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="mt-6 h-2" />
        <Skeleton className="mt-8 h-64" />
      </PageContainer>
    );
  }
  if (query.isError) return <ErrorScreen error={query.error} kind={kind} courseId={courseId} />;

  const quiz = query.data;
  if (!quiz) return null;
  if (result) return <Result quiz={quiz} result={result} next={nextStep?.(quiz) ?? null} onRetake={restart} />;

  if (quiz.previous && !retaking) {
    return (
      <Screen
        title={quiz.title}
        text={`You have already completed this ${kind} with a score of ${quiz.previous.score}%. Would you like to retake it?`}
      >
        <div className="w-full">
          <p className="text-sm text-muted">
            Best score {quiz.previous.bestScore}% · {quiz.previous.attempts} attempt
            {quiz.previous.attempts === 1 ? "" : "s"} · {quiz.previous.passed ? "Passed" : "Not passed yet"}
          </p>
          <AttemptsNote attemptsLeft={quiz.attemptsLeft} />
        </div>
        <Link to={paths.course(courseId)} className={buttonClasses("secondary")}>
          Back to Course
        </Link>
        <Button onClick={restart}>{kind === "exam" ? "Retake Exam" : "Retake Quiz"}</Button>
      </Screen>
    );
  }

  const question = quiz.questions[index];
  const total = quiz.questions.length;
  if (!question) throw new Error(`Question ${index + 1} is not one of this attempt's ${total} questions.`);
  const answered = answers[question.id] !== undefined;
  const last = index === total - 1;
  const isFlagged = flagged.has(question.id);
  const statusOf = (id: string): Status =>
    answers[id] === undefined ? "unanswered" : flagged.has(id) ? "flagged" : "answered";
  const toggleFlag = () =>
    setFlagged((current) => {
      const next = new Set(current);
      if (next.has(question.id)) next.delete(question.id);
      else next.add(question.id);
      return next;
    });
  const header = (
    <>
      <Link to={paths.course(courseId)} className="text-sm text-muted hover:underline">
        ← Back to Course
      </Link>
      <h1 className="mt-3 text-2xl font-bold">{quiz.title}</h1>
      {!quiz.recorded && <p className="mt-1 text-sm text-muted">Preview quiz: your result is graded but not saved.</p>}
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <AttemptsNote attemptsLeft={quiz.attemptsLeft} />
        {quiz.deadlineAt && <TimeLeft deadlineAt={quiz.deadlineAt} />}
      </div>
    </>
  );
  if (reviewing)
    return (
      <PageContainer className="max-w-3xl">
        {header}
        <ReviewStep
          quiz={quiz}
          statusOf={statusOf}
          heading={reviewHeading}
          onGoTo={goTo}
          onSubmit={() => submit.mutate({ answers, attemptId: quiz.attemptId })}
          submitting={submit.isPending}
        />
      </PageContainer>
    );
  return (
    <PageContainer className="max-w-3xl">
      {header}
      <div className="mt-5">
        <div className="mb-1 flex justify-between text-sm text-muted">
          <span aria-live="polite" aria-atomic="true" data-testid="question-position">
            Question {index + 1} of {total}
          </span>
          <span>{Math.round(((index + 1) / total) * 100)}%</span>
        </div>
        <ProgressBar value={((index + 1) / total) * 100} label={kind === "exam" ? "Exam progress" : "Quiz progress"} />
      </div>
      <Card className="mt-6 p-6">
        <h2 ref={questionHeading} tabIndex={-1} id={`question-${question.id}`} className="text-lg font-semibold">
          {question.question}
        </h2>
        <RadioGroup.Root
          key={question.id}
          aria-labelledby={`question-${question.id}`}
          value={answers[question.id] ?? ""}
          onValueChange={(value) => setAnswers((a) => ({ ...a, [question.id]: value }))}
          className="mt-4 space-y-2"
        >
          {question.options.map((option) => (
            // biome-ignore lint/a11y/noLabelWithoutControl: the Radix radio item inside is the control.
            <label
              key={option.id}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-line p-3 hover:bg-brand-50 has-[[data-state=checked]]:border-brand-600 has-[[data-state=checked]]:bg-brand-50"
            >
              <RadioGroup.Item
                value={option.id}
                aria-labelledby={`option-${question.id}-${option.id}`}
                className="mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full border-2 border-slate-400 data-[state=checked]:border-brand-700"
              >
                <RadioGroup.Indicator className="h-2.5 w-2.5 rounded-full bg-brand-700" />
              </RadioGroup.Item>
              {/* Hidden from reading order: the radio's name already says it, so it is not read twice. */}
              <span id={`option-${question.id}-${option.id}`} aria-hidden="true">
                {option.text}
              </span>
            </label>
          ))}
        </RadioGroup.Root>
        <Button variant="ghost" size="sm" className="mt-3" aria-pressed={isFlagged} onClick={toggleFlag}>
          <Flag size={16} aria-hidden="true" />
          Flag for review
        </Button>
      </Card>
      {/* With large text the buttons may not fit side by side: the last wraps and stays on the right. */}
      <div className="mt-6 flex flex-wrap justify-between gap-3">
        <Button variant="secondary" onClick={() => goTo(index - 1)} disabled={index === 0}>
          Previous
        </Button>
        {reviewedOnce && !last && (
          <Button variant="secondary" onClick={openReview} disabled={!answered}>
            Back to Review
          </Button>
        )}
        <Button onClick={last ? openReview : () => goTo(index + 1)} disabled={!answered} className="ml-auto">
          {last ? "Review Answers" : "Next"}
        </Button>
      </div>
    </PageContainer>
  );
}
