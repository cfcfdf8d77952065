import { useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import type { StaffQueue } from "#shared/schemas/questions.ts";
import { useStaffQueue } from "./api.ts";
import { lessonQuestionPath } from "./pages-api.ts";
import { Byline, QuestionThread } from "./question-thread.tsx";

type Item = StaffQueue["items"][number];

/** How long a question has waited, in its largest whole units. */
export function waitingFor(seconds: number) {
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days > 0) return `${days} day${days === 1 ? "" : "s"} ${hours % 24} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/**
 * Staff's unanswered questions (decision 0056): per course they teach, oldest first, with how long each
 * has waited. A question opens here to be answered (and its answer accepted) without leaving the queue.
 */
export default function StaffQuestionsPage() {
  useDocumentMeta({ title: `Unanswered Questions | ${BRAND_NAME}`, description: "Questions waiting for staff." });
  const queue = useStaffQueue();
  const [open, setOpen] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const courses = new Map<string, { title: string; items: Item[] }>();
  for (const item of queue.data?.items ?? []) {
    const group = courses.get(item.courseId) ?? { title: item.courseTitle, items: [] };
    group.items.push(item);
    courses.set(item.courseId, group);
  }
  return (
    <PageContainer className="max-w-4xl py-10">
      <h1 ref={headingRef} tabIndex={-1} className="font-serif text-3xl font-bold">
        Unanswered questions
      </h1>
      <p className="mt-2 text-sm text-muted">
        Learners' questions no instructor, assessor or admin has answered yet, oldest first.
      </p>
      {open ? (
        <section aria-label="Answering" className="mt-6 rounded-lg border border-line p-4">
          <QuestionThread
            questionId={open}
            onClose={() => {
              setOpen(null);
              requestAnimationFrame(() => headingRef.current?.focus());
            }}
          />
        </section>
      ) : null}
      {queue.isPending ? (
        <Skeleton className="mt-6 h-40" />
      ) : queue.isError ? (
        <p role="alert" className="mt-6">
          {refusal(queue.error)}
        </p>
      ) : courses.size === 0 ? (
        <p className="mt-6">No question is waiting for an answer.</p>
      ) : (
        [...courses].map(([courseId, group]) => (
          <section key={courseId} aria-labelledby={`queue-${courseId}`} className="mt-8">
            <h2 id={`queue-${courseId}`} className="text-xl font-bold">
              {group.title} ({group.items.length})
            </h2>
            <ul className="mt-3 space-y-2">
              {group.items.map((q) => (
                <li key={q.id} className="rounded-lg border border-line p-3" data-testid="queue-item">
                  <p className="font-medium">{q.title}</p>
                  <p className="text-sm text-muted">
                    Waiting {waitingFor(q.waitingSeconds)} ·{" "}
                    <Link to={lessonQuestionPath(q.courseId, q.lessonId, q.id)} className="underline">
                      Lesson: {q.lessonTitle}
                    </Link>
                  </p>
                  <Byline author={q.author} createdAt={q.createdAt} editedAt={null} />
                  <Button size="sm" className="mt-2" onClick={() => setOpen(q.id)}>
                    Answer<span className="sr-only">: {q.title}</span>
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </PageContainer>
  );
}
