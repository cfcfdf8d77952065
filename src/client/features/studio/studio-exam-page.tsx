import { useId, useRef, useState } from "react";
import { PASS_MARK } from "#shared/constants.ts";
import { blueprintModules, blueprintProblems } from "#shared/exam-blueprint.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { useDraftPart } from "./draft-part.ts";
import { PartSaveBar } from "./part-save-bar.tsx";
import { StudioSection, useStudioDraft } from "./studio-section.tsx";

type Exam = Record<string, unknown> & {
  title?: string;
  draw?: number;
  timeLimitMinutes?: number;
  blueprint?: Record<string, number>;
  questions?: { lesson?: string }[];
};
const examOf = (document: CourseDocument) => (document.exam ? (structuredClone(document.exam) as Exam) : null);
const titleOf = (record: Record<string, unknown>, id: string) => (typeof record.title === "string" ? record.title : id);

/** The blueprint check in the author's words: what every draw needs and whether the bank can give it. */
export function blueprintCheck(document: CourseDocument, exam: Exam) {
  const input = {
    blueprint: exam.blueprint ?? {},
    draw: exam.draw ?? 6,
    modules: document.modules.map((m) => ({ id: m.id, lessonIds: m.lessons.map((l) => l.id) })),
    questions: exam.questions ?? [],
  };
  return { problems: blueprintProblems(input), modules: blueprintModules(input) };
}

function ExamEditor({ draft }: { draft: Draft }) {
  const id = useId();
  const base = useRef(examOf(draft.document));
  const [exam, setExam] = useState(() => structuredClone(base.current));
  const part = useDraftPart(examOf, (d, e: Exam | null) => ({ ...d, exam: e }));
  if (!exam) return <p>This course has no final exam yet: add its questions in Question banks.</p>;
  const check = blueprintCheck(draft.document, exam);
  const set = (patch: Partial<Exam>) => {
    setExam({ ...exam, ...patch });
    part.reset();
  };
  const number = (value: string) => (value === "" ? undefined : Number(value));
  return (
    <div className="max-w-2xl">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-time`} className="block text-sm font-medium">
            Time limit (minutes)
          </label>
          <input
            id={`${id}-time`}
            type="number"
            min={1}
            max={600}
            className="h-10 w-28 rounded-md border border-slate-300 px-2"
            value={exam.timeLimitMinutes ?? ""}
            onChange={(e) => set({ timeLimitMinutes: number(e.target.value) })}
          />
        </div>
        <div>
          <label htmlFor={`${id}-draw`} className="block text-sm font-medium">
            Questions per exam
          </label>
          <input
            id={`${id}-draw`}
            type="number"
            min={1}
            max={100}
            className="h-10 w-28 rounded-md border border-slate-300 px-2"
            value={exam.draw ?? 6}
            onChange={(e) => set({ draw: number(e.target.value) })}
          />
        </div>
      </div>
      <p className="mt-3 text-sm text-muted">
        Pass mark: {PASS_MARK}% of the questions, the same for every course's exam and quizzes.
      </p>
      <table className="mt-4 w-full text-left text-sm">
        <caption className="text-left font-semibold">Blueprint: questions each exam takes from each module</caption>
        <thead>
          <tr>
            <th scope="col">Module</th>
            <th scope="col">Questions per exam</th>
            <th scope="col">In the bank</th>
          </tr>
        </thead>
        <tbody>
          {draft.document.modules.map((m) => {
            const row = check.modules.find((x) => x.id === m.id);
            return (
              <tr key={m.id}>
                <th scope="row" className="font-normal">
                  <label htmlFor={`${id}-bp-${m.id}`}>{titleOf(m.module, m.id)}</label>
                </th>
                <td>
                  <input
                    id={`${id}-bp-${m.id}`}
                    type="number"
                    min={1}
                    max={100}
                    className="h-9 w-20 rounded-md border border-slate-300 px-2"
                    value={exam.blueprint?.[m.id] ?? ""}
                    onChange={(e) => {
                      const blueprint = { ...(exam.blueprint ?? {}) };
                      const value = number(e.target.value);
                      if (value === undefined) delete blueprint[m.id];
                      else blueprint[m.id] = value;
                      set({ blueprint });
                    }}
                  />
                </td>
                <td className={row && row.pool < row.wanted ? "font-semibold text-danger" : ""}>{row?.pool ?? 0}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div
        aria-live="polite"
        className="mt-4 rounded-lg border border-slate-300 p-3 text-sm"
        data-testid="blueprint-check"
      >
        {check.problems.length === 0 ? (
          <p className="font-semibold text-green-800">Every exam draw can follow this blueprint.</p>
        ) : (
          <>
            <p className="font-semibold text-danger">Not every exam draw can follow this blueprint:</p>
            <ul className="list-disc pl-5">
              {check.problems.map((p) => (
                <li key={p}>{p.replace(/^blueprint: /, "")}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <PartSaveBar
        label="Save exam"
        what="the exam"
        state={part.state}
        onSave={async () => {
          const saved = await part.save(draft, base.current, exam);
          if (saved) base.current = examOf(saved.document);
        }}
      />
    </div>
  );
}

export default function StudioExamPage() {
  const draft = useStudioDraft().data;
  return <StudioSection title="Final exam">{draft && <ExamEditor draft={draft} />}</StudioSection>;
}
