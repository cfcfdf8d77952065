import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Spinner } from "#client/components/ui/misc.tsx";
import { api, dataOf, refusal } from "#client/lib/api-client.ts";
import { PASS_MARK } from "#shared/constants.ts";
import type { BankQuestion } from "#shared/item-writing.ts";
import type { Draft } from "#shared/schemas/studio.ts";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

const titleOf = (record: Record<string, unknown>, id: string) => (typeof record.title === "string" ? record.title : id);

function LessonPreview({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const preview = useQuery({
    queryKey: ["/api/studio/courses", courseId, "preview", lessonId],
    queryFn: () =>
      dataOf(
        api.GET("/api/studio/courses/{courseId}/lessons/{lessonId}/preview", {
          params: { path: { courseId, lessonId } },
        }),
      ),
    staleTime: 0,
  });
  if (preview.isPending) return <Spinner label="Loading the preview" />;
  if (preview.isError) return <p role="alert">{refusal(preview.error, "The preview could not be made.")}</p>;
  return (
    <article>
      <h2 className="font-serif text-2xl font-bold">{preview.data.title}</h2>
      {/* The server's sanitised rendering, as the lesson page shows it. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server like every lesson page */}
      <div className="lesson-prose mt-4" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
    </article>
  );
}

/** A module's quiz answered for real and graded by the draft's keys, in this page only: nothing is recorded. */
function QuizPreview({ questions, title }: { questions: BankQuestion[]; title: string }) {
  const id = useId();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [graded, setGraded] = useState(false);
  const right = questions.filter((q) => answers[q.id] === q.correctAnswer).length;
  const score = questions.length ? Math.round((100 * right) / questions.length) : 0;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setGraded(true);
      }}
    >
      <h2 className="font-serif text-2xl font-bold">{title}</h2>
      <p className="text-sm text-muted">Graded by the draft's keys; nothing is recorded.</p>
      <ol className="mt-4 space-y-4">
        {questions.map((q, i) => (
          <li key={q.id}>
            <fieldset>
              <legend className="font-semibold">
                {i + 1}. {q.question}
              </legend>
              {q.options.map((o) => (
                <div key={o.id} className="mt-1 flex items-center gap-2">
                  <input
                    type="radio"
                    id={`${id}-${q.id}-${o.id}`}
                    name={`${id}-${q.id}`}
                    checked={answers[q.id] === o.id}
                    onChange={() => {
                      setAnswers({ ...answers, [q.id]: o.id });
                      setGraded(false);
                    }}
                  />
                  <label htmlFor={`${id}-${q.id}-${o.id}`}>{o.text}</label>
                </div>
              ))}
              {graded && (
                <p className={`mt-1 text-sm ${answers[q.id] === q.correctAnswer ? "text-green-800" : "text-danger"}`}>
                  {answers[q.id] === q.correctAnswer ? "Correct." : "Not correct."} {q.explanation}
                </p>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex items-center gap-3">
        <Button type="submit">Check answers</Button>
        {graded && (
          <p role="status" className="font-semibold">
            {right} of {questions.length} right ({score}%):{" "}
            {score >= PASS_MARK ? "a pass" : `not a pass (${PASS_MARK}% needed)`}.
          </p>
        )}
      </div>
    </form>
  );
}

function Preview({ draft }: { draft: Draft }) {
  const courseId = useStudioCourseId();
  const [choice, setChoice] = useState("");
  const [phone, setPhone] = useState(false);
  const lessons = draft.document.modules.flatMap((m) =>
    m.lessons.map((l) => ({ id: l.id, title: titleOf(l.meta, l.id) })),
  );
  const quizzes = draft.document.modules.filter((m) => m.quiz);
  const [kind, itemId] = choice.split(":");
  const quizModule = kind === "quiz" ? quizzes.find((m) => m.id === itemId) : undefined;
  const quiz = quizModule?.quiz as { title?: string; draw?: number; questions?: BankQuestion[] } | undefined;
  return (
    <div>
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="preview-choice" className="block text-sm font-medium">
            What to preview
          </label>
          <select
            id="preview-choice"
            className="h-10 rounded-md border border-slate-300 px-2"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
          >
            <option value="">Choose a lesson or a quiz</option>
            <optgroup label="Lessons">
              {lessons.map((l) => (
                <option key={l.id} value={`lesson:${l.id}`}>
                  {l.title}
                </option>
              ))}
            </optgroup>
            <optgroup label="Quizzes">
              {quizzes.map((m) => (
                <option key={m.id} value={`quiz:${m.id}`}>
                  {titleOf(m.module, m.id)} quiz
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div className="flex items-center gap-2">
          <input id="preview-phone" type="checkbox" checked={phone} onChange={(e) => setPhone(e.target.checked)} />
          <label htmlFor="preview-phone" className="text-sm">
            At phone width (390 px)
          </label>
        </div>
      </div>
      <div className={`mt-6 rounded-lg border border-slate-300 bg-white p-4 ${phone ? "max-w-[390px]" : ""}`}>
        {kind === "lesson" && itemId ? (
          <LessonPreview courseId={courseId} lessonId={itemId} />
        ) : quiz ? (
          <QuizPreview
            key={itemId}
            title={quiz.title ?? "Quiz"}
            questions={(quiz.questions ?? []).slice(0, quiz.draw ?? 6)}
          />
        ) : (
          <p className="text-muted">Choose a lesson or a quiz of the draft.</p>
        )}
      </div>
    </div>
  );
}

export default function StudioPreviewPage() {
  const draft = useStudioDraft().data;
  return <StudioSection title="Preview as a learner">{draft && <Preview draft={draft} />}</StudioSection>;
}
