import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { paths } from "#client/config/paths.ts";
import { api, dataOf } from "#client/lib/api-client.ts";
import { type BankQuestion, itemHints, strategyScores } from "#shared/item-writing.ts";
import type { ItemStatistic } from "#shared/schemas/item-statistics.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { type PartState, useDraftPart } from "./draft-part.ts";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

interface Bank {
  title: string;
  draw?: number;
  questions: BankQuestion[];
  [key: string]: unknown;
}

const LETTERS = "abcdef";
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 6;
const pct = (x: number) => `${Math.round(100 * x)}%`;
const titleOf = (record: Record<string, unknown>, id: string) => (typeof record.title === "string" ? record.title : id);

/** The bank's file object ("exam" for the final exam's), or null. */
function bankIn(document: CourseDocument, bankId: string): Bank | null {
  const file = bankId === "exam" ? document.exam : (document.modules.find((m) => m.id === bankId)?.quiz ?? null);
  return file ? (structuredClone(file) as unknown as Bank) : null;
}
function withBank(document: CourseDocument, bankId: string, bank: Bank | null): CourseDocument {
  if (bankId === "exam") return { ...document, exam: bank as unknown as Record<string, unknown> | null };
  return {
    ...document,
    modules: document.modules.map((m) =>
      m.id === bankId ? { ...m, quiz: bank as unknown as Record<string, unknown> | null } : m,
    ),
  };
}

function nextId(questions: BankQuestion[]) {
  const ids = new Set(questions.map((q) => q.id));
  let n = questions.length + 1;
  while (ids.has(`q${n}`)) n++;
  return `q${n}`;
}

function SaveLine({ state, dirty }: { state: PartState; dirty: boolean }) {
  const text =
    state.kind === "saving"
      ? "Saving…"
      : state.kind === "failed"
        ? `Not saved: ${state.message}`
        : state.kind === "conflict"
          ? "Not saved: someone else changed this bank."
          : dirty
            ? "Unsaved changes"
            : "Saved";
  return (
    <p role="status" className={state.kind === "failed" || state.kind === "conflict" ? "text-danger" : "text-muted"}>
      {text}
    </p>
  );
}

/** Whether the draft's item still asks what the published one did (stem, options and key). */
function sameAsPublished(q: BankQuestion, stat: ItemStatistic) {
  return (
    q.question === stat.question &&
    q.options.length === stat.options.length &&
    stat.options.every((o) => {
      const mine = q.options.find((m) => m.id === o.id);
      return mine?.text === o.text && (q.correctAnswer === o.id) === o.correct;
    })
  );
}

/** Live statistics of a published item, of the version the draft is based on, flagged when out of bounds. */
function ItemFigures({
  stat,
  question,
  version,
}: {
  stat: ItemStatistic | undefined;
  question: BankQuestion;
  version: number;
}) {
  if (!stat) return <p className="text-xs text-muted">No statistics: not in published version {version}.</p>;
  const changed = !sameAsPublished(question, stat) && (
    <p className="text-xs text-amber-900">
      Changed in this draft: these figures are of the wording published in version {version}.
    </p>
  );
  if (!stat.enoughData)
    return (
      <div className="text-xs">
        <p className="text-muted">
          Version {version}: {stat.responses} responses, not enough for figures yet (at least 30).
        </p>
        {changed}
      </div>
    );
  return (
    <div className="text-xs">
      <p>
        Version {version}, {stat.responses} responses: difficulty {pct(stat.difficulty ?? 0)} correct, discrimination{" "}
        {stat.discrimination?.toFixed(2) ?? "n/a"}.
      </p>
      <p>
        Chosen:{" "}
        {stat.options
          .map((o) => `${o.id.toUpperCase()}${o.correct ? " (key)" : ""} ${o.count} (${pct(o.count / stat.responses)})`)
          .join(", ")}
      </p>
      {stat.flags.length > 0 && (
        <p className="font-semibold text-danger">Check this item: {stat.flags.join(", ").replaceAll("-", " ")}</p>
      )}
      {changed}
    </div>
  );
}

function QuestionCard(props: {
  index: number;
  count: number;
  question: BankQuestion;
  lessons: { id: string; title: string }[];
  stat: ItemStatistic | undefined;
  /** The published version the figures are of; null when there are none to show. */
  statsVersion: number | null;
  onChange: (q: BankQuestion) => void;
  onMove: (by: -1 | 1) => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const { question: q, index } = props;
  const id = useId();
  const lessonTitle = props.lessons.find((l) => l.id === q.lesson)?.title;
  const hints = itemHints(q, lessonTitle);
  const set = (patch: Partial<BankQuestion>) => props.onChange({ ...q, ...patch });
  const setOption = (i: number, text: string) =>
    set({ options: q.options.map((o, j) => (j === i ? { ...o, text } : o)) });
  const removeOption = (i: number) => {
    const removedKey = q.options[i]?.id === q.correctAnswer;
    const options = q.options.filter((_, j) => j !== i).map((o, j) => ({ ...o, id: LETTERS[j] ?? o.id }));
    const keyIndex = q.options.findIndex((o) => o.id === q.correctAnswer);
    const newKey = removedKey ? "a" : (LETTERS[keyIndex > i ? keyIndex - 1 : keyIndex] ?? "a");
    set({ options, correctAnswer: newKey });
  };
  const label = `Question ${index + 1}`;
  return (
    <li className="rounded-lg border border-slate-300 bg-white p-4" data-testid={`question-${index + 1}`}>
      <fieldset>
        <legend className="font-semibold">{label}</legend>
        <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
          <div>
            <label htmlFor={`${id}-stem`} className="block text-sm font-medium">
              {label}: the question
            </label>
            <textarea
              id={`${id}-stem`}
              rows={2}
              className="w-full rounded-md border border-slate-300 px-2"
              value={q.question}
              aria-describedby={`${id}-hints`}
              onChange={(e) => set({ question: e.target.value })}
            />
            <p className="mt-2 text-sm font-medium">Options (choose the correct one)</p>
            <ol className="space-y-2">
              {q.options.map((o, i) => (
                <li key={o.id} className="flex items-center gap-2">
                  <input
                    type="radio"
                    id={`${id}-key-${o.id}`}
                    name={`${id}-key`}
                    checked={q.correctAnswer === o.id}
                    onChange={() => set({ correctAnswer: o.id })}
                    aria-label={`Option ${o.id.toUpperCase()} is the correct answer`}
                  />
                  <label htmlFor={`${id}-option-${o.id}`} className="w-20 text-sm">
                    Option {o.id.toUpperCase()}
                  </label>
                  <input
                    id={`${id}-option-${o.id}`}
                    className="h-9 flex-1 rounded-md border border-slate-300 px-2"
                    value={o.text}
                    aria-describedby={`${id}-hints`}
                    onChange={(e) => setOption(i, e.target.value)}
                  />
                  {q.options.length > MIN_OPTIONS && (
                    <Button size="sm" variant="ghost" onClick={() => removeOption(i)}>
                      Remove option {o.id.toUpperCase()}
                    </Button>
                  )}
                </li>
              ))}
            </ol>
            {q.options.length < MAX_OPTIONS && (
              <Button
                size="sm"
                variant="secondary"
                className="mt-2"
                onClick={() => set({ options: [...q.options, { id: LETTERS[q.options.length] ?? "f", text: "" }] })}
              >
                Add an option
              </Button>
            )}
            <label htmlFor={`${id}-explanation`} className="mt-3 block text-sm font-medium">
              Explanation (shown after answering; name the lesson)
            </label>
            <textarea
              id={`${id}-explanation`}
              rows={2}
              className="w-full rounded-md border border-slate-300 px-2"
              value={q.explanation ?? ""}
              onChange={(e) => set({ explanation: e.target.value })}
            />
            <label htmlFor={`${id}-lesson`} className="mt-3 block text-sm font-medium">
              Lesson it tests
            </label>
            <select
              id={`${id}-lesson`}
              className="h-10 rounded-md border border-slate-300 px-2"
              value={q.lesson ?? ""}
              onChange={(e) => set({ lesson: e.target.value || undefined })}
            >
              <option value="">Choose a lesson</option>
              {props.lessons.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.title}
                </option>
              ))}
            </select>
          </div>
          <div>
            <div id={`${id}-hints`} aria-live="polite" className="text-sm">
              <p className="font-semibold">Item-writing hints</p>
              {hints.length === 0 ? (
                <p className="text-muted">No cues found: a learner needs the course to answer this.</p>
              ) : (
                <ul className="list-disc space-y-1 pl-5 text-amber-900">
                  {hints.map((h) => (
                    <li key={h.rule}>{h.message}</li>
                  ))}
                </ul>
              )}
            </div>
            {props.statsVersion !== null && (
              <div className="mt-3">
                <p className="text-sm font-semibold">With learners</p>
                <ItemFigures stat={props.stat} question={q} version={props.statsVersion} />
              </div>
            )}
          </div>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" variant="ghost" disabled={index === 0} onClick={() => props.onMove(-1)}>
            Move {label.toLowerCase()} up
          </Button>
          <Button size="sm" variant="ghost" disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
            Move {label.toLowerCase()} down
          </Button>
          <Button size="sm" variant="ghost" onClick={props.onDuplicate}>
            Duplicate {label.toLowerCase()}
          </Button>
          <Button size="sm" variant="ghost" className="text-danger" onClick={props.onDelete}>
            Delete {label.toLowerCase()}
          </Button>
        </div>
      </fieldset>
    </li>
  );
}

function BankEditor({ draft, bankId }: { draft: Draft; bankId: string }) {
  const courseId = draft.courseId;
  const base = useRef(bankIn(draft.document, bankId));
  const [bank, setBank] = useState<Bank | null>(() => structuredClone(base.current));
  const [announcement, setAnnouncement] = useState("");
  const listRef = useRef<HTMLOListElement>(null);
  const part = useDraftPart(
    (d) => bankIn(d, bankId),
    (d, b: Bank | null) => withBank(d, bankId, b),
  );
  const stats = useQuery({
    queryKey: ["/api/studio/courses", courseId, "item-statistics", draft.baseVersion],
    queryFn: () =>
      dataOf(
        api.GET("/api/studio/courses/{courseId}/item-statistics", {
          params: { path: { courseId }, query: draft.baseVersion ? { version: draft.baseVersion } : {} },
        }),
      ),
    enabled: draft.baseVersion !== null,
  });
  if (!bank) return <p>This bank does not exist in the draft.</p>;
  const module = draft.document.modules.find((m) => m.id === bankId);
  const lessons = (bankId === "exam" ? draft.document.modules : module ? [module] : []).flatMap((m) =>
    m.lessons.map((l) => ({ id: l.id, title: titleOf(l.meta, l.id) })),
  );
  const statFor = (questionId: string) =>
    stats.data?.items.find(
      (i) => i.assessment === (bankId === "exam" ? "exam" : bankId) && i.questionId === questionId,
    );
  const questions = bank.questions;
  const update = (next: BankQuestion[], message?: string) => {
    setBank({ ...bank, questions: next });
    part.reset();
    if (message) setAnnouncement(message);
  };
  const focusQuestion = (index: number) =>
    requestAnimationFrame(() =>
      listRef.current?.querySelectorAll<HTMLTextAreaElement>("textarea[id$='-stem']")[index]?.focus(),
    );
  const dirty = JSON.stringify(bank) !== JSON.stringify(base.current);
  const scores = strategyScores(questions);

  return (
    <div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={`draw-${bankId}`} className="block text-sm font-medium">
            Questions drawn per attempt
          </label>
          <input
            id={`draw-${bankId}`}
            type="number"
            min={1}
            max={100}
            className="h-10 w-24 rounded-md border border-slate-300 px-2"
            value={bank.draw ?? 6}
            onChange={(e) => {
              setBank({ ...bank, draw: Number(e.target.value) });
              part.reset();
            }}
          />
        </div>
        <p className="text-sm text-muted">
          {questions.length} questions in the bank; each attempt draws {bank.draw ?? 6} (the bank needs at least{" "}
          {3 * (bank.draw ?? 6)}).
        </p>
      </div>
      <section aria-labelledby={`scores-${bankId}`} className="mt-4 rounded-lg border border-slate-300 p-3">
        <h2 id={`scores-${bankId}`} className="font-semibold">
          Mechanical strategies over this bank
        </h2>
        <ul className="mt-1 grid gap-1 text-sm sm:grid-cols-2">
          {scores.map((s) => (
            <li key={s.name} className={s.over ? "font-semibold text-danger" : ""}>
              Always picking {s.name}: {pct(s.score)} (limit {pct(s.limit)}){s.over ? ": too high" : ""}
            </li>
          ))}
        </ul>
      </section>
      <ol ref={listRef} className="mt-4 space-y-4">
        {questions.map((q, i) => (
          <QuestionCard
            key={`${q.id}-${i}`}
            index={i}
            count={questions.length}
            question={q}
            lessons={lessons}
            stat={statFor(q.id)}
            statsVersion={stats.data?.version ?? null}
            onChange={(next) => update(questions.map((x, j) => (j === i ? next : x)))}
            onMove={(by) => {
              const next = [...questions];
              const [moved] = next.splice(i, 1);
              if (moved) next.splice(i + by, 0, moved);
              update(next, `Question moved to position ${i + by + 1} of ${questions.length}.`);
              focusQuestion(i + by);
            }}
            onDuplicate={() => {
              const copy = { ...structuredClone(q), id: nextId(questions) };
              update([...questions.slice(0, i + 1), copy, ...questions.slice(i + 1)], `Question ${i + 1} duplicated.`);
              focusQuestion(i + 1);
            }}
            onDelete={() => {
              update(
                questions.filter((_, j) => j !== i),
                `Question ${i + 1} deleted.`,
              );
              focusQuestion(Math.max(0, i - 1));
            }}
          />
        ))}
      </ol>
      <div className="sticky bottom-0 mt-4 flex flex-wrap items-center gap-3 border-t border-line bg-white py-3">
        <Button
          variant="secondary"
          onClick={() => {
            const q: BankQuestion = {
              id: nextId(questions),
              question: "",
              options: ["a", "b", "c", "d"].map((id) => ({ id, text: "" })),
              correctAnswer: "a",
              explanation: "",
              lesson: lessons[0]?.id,
            };
            update([...questions, q], "Question added at the end.");
            focusQuestion(questions.length);
          }}
        >
          Add a question
        </Button>
        <Button
          pending={part.state.kind === "saving"}
          onClick={async () => {
            const saved = await part.save(draft, base.current, bank);
            if (saved) base.current = bankIn(saved.document, bankId);
          }}
        >
          Save bank
        </Button>
        <SaveLine state={part.state} dirty={dirty} />
        {part.state.kind === "conflict" && (
          <>
            <Button
              variant="secondary"
              onClick={async () => {
                if (part.state.kind !== "conflict") return;
                const current = part.state.current;
                const saved = await part.save(current, bankIn(current.document, bankId), bank);
                if (saved) base.current = bankIn(saved.document, bankId);
              }}
            >
              Keep my bank
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                if (part.state.kind !== "conflict") return;
                base.current = bankIn(part.state.current.document, bankId);
                setBank(structuredClone(base.current));
                part.reset();
              }}
            >
              Use theirs
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

/** The course's question banks: each module's quiz and the final exam's, one open at a time. */
export default function StudioQuestionBanksPage() {
  const courseId = useStudioCourseId();
  const draft = useStudioDraft().data;
  const bankId = useParams()["*"] ?? "";
  if (!draft) return null;
  const banks = [
    ...draft.document.modules
      .filter((m) => m.quiz)
      .map((m) => ({ id: m.id, title: `${titleOf(m.module, m.id)} quiz` })),
    ...(draft.document.exam ? [{ id: "exam", title: "Final exam" }] : []),
  ];
  const open = banks.find((b) => b.id === bankId);
  return (
    <StudioSection title={open ? `Question bank: ${open.title}` : "Question banks"}>
      <nav aria-label="Question banks of the course">
        <ul className="flex flex-wrap gap-2">
          {banks.map((b) => (
            <li key={b.id}>
              <Link
                to={`${paths.studioCourse(courseId, "question-banks")}/${b.id}`}
                aria-current={b.id === bankId ? "page" : undefined}
                className="inline-block rounded-md border border-slate-300 px-3 py-1 text-sm text-brand-700 underline aria-[current=page]:font-bold"
              >
                {b.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-4">
        {open ? (
          <BankEditor key={open.id} draft={draft} bankId={open.id} />
        ) : (
          <p className="text-muted">Choose a bank to edit.</p>
        )}
      </div>
    </StudioSection>
  );
}
