import { useId, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { useDraftPart } from "./draft-part.ts";
import { PartSaveBar } from "./part-save-bar.tsx";
import { type Criterion, type Level, type Meta, rubricCheck } from "./rubric-check.ts";
import { StudioSection, useStudioDraft } from "./studio-section.tsx";

type Practical = NonNullable<CourseDocument["practical"]>;

const practicalOf = (document: CourseDocument) =>
  document.practical ? (structuredClone(document.practical) as Practical) : null;

const NEW_LEVELS: Level[] = [
  { points: 0, label: "Not yet", descriptor: "" },
  { points: 1, label: "Developing", descriptor: "" },
  { points: 2, label: "Competent", descriptor: "" },
  { points: 3, label: "Strong", descriptor: "" },
];
const blankPractical = (): Practical => ({
  meta: {
    title: "Practical skills assessment",
    requiredForCertificate: true,
    assessorRequirements: "",
    redFlagSteps: "",
    passRule: { minimumLevel: "Competent" },
    criteria: [],
  },
  body: "## What to submit\n\n",
  exemplars: null,
});

function PracticalEditor({ draft }: { draft: Draft }) {
  const id = useId();
  const base = useRef(practicalOf(draft.document));
  const [practical, setPractical] = useState(() => structuredClone(base.current));
  const part = useDraftPart(practicalOf, (d, p: Practical | null) => ({ ...d, practical: p }));
  if (!practical)
    return (
      <div>
        <p>This course has no practical assessment.</p>
        <Button className="mt-3" onClick={() => setPractical(blankPractical())}>
          Add a practical assessment
        </Button>
      </div>
    );
  const meta = practical.meta as Meta;
  const criteria = meta.criteria ?? [];
  const setMeta = (patch: Partial<Meta>) => {
    setPractical({ ...practical, meta: { ...meta, ...patch } });
    part.reset();
  };
  const setCriterion = (i: number, patch: Partial<Criterion>) =>
    setMeta({ criteria: criteria.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const problems = rubricCheck(meta);
  const input = "h-10 w-full rounded-md border border-slate-300 px-2";
  return (
    <div className="max-w-3xl space-y-4">
      <div>
        <label htmlFor={`${id}-title`} className="block text-sm font-medium">
          Title
        </label>
        <input
          id={`${id}-title`}
          className={input}
          value={meta.title ?? ""}
          onChange={(e) => setMeta({ title: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${id}-brief`} className="block text-sm font-medium">
          Brief (Markdown: what the learner does and submits)
        </label>
        <textarea
          id={`${id}-brief`}
          rows={8}
          className="w-full rounded-md border border-slate-300 px-2 font-mono text-sm"
          value={practical.body}
          onChange={(e) => {
            setPractical({ ...practical, body: e.target.value });
            part.reset();
          }}
        />
      </div>
      <div className="flex items-center gap-2">
        <input
          id={`${id}-required`}
          type="checkbox"
          checked={meta.requiredForCertificate ?? false}
          onChange={(e) => setMeta({ requiredForCertificate: e.target.checked })}
        />
        <label htmlFor={`${id}-required`} className="text-sm">
          The certificate requires a pass in this practical
        </label>
      </div>
      <fieldset className="rounded-lg border border-slate-300 p-3">
        <legend className="px-1 font-semibold">Pass rule</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-minimum`} className="block text-sm font-medium">
              Every criterion at least this level
            </label>
            <input
              id={`${id}-minimum`}
              className={input}
              value={meta.passRule?.minimumLevel ?? ""}
              onChange={(e) => setMeta({ passRule: { ...meta.passRule, minimumLevel: e.target.value } })}
            />
          </div>
          <div>
            <label htmlFor={`${id}-percent`} className="block text-sm font-medium">
              And at least this share of the points (%, optional)
            </label>
            <input
              id={`${id}-percent`}
              type="number"
              min={1}
              max={100}
              className={input}
              value={meta.passRule?.minPercent ?? ""}
              onChange={(e) => {
                const { minPercent: _, ...rule } = meta.passRule ?? { minimumLevel: "Competent" };
                setMeta({
                  passRule: e.target.value ? { ...rule, minPercent: Number(e.target.value) } : rule,
                });
              }}
            />
          </div>
        </div>
      </fieldset>
      <ol className="space-y-3">
        {criteria.map((c, i) => (
          <li key={`${c.id}-${i}`} className="rounded-lg border border-slate-300 p-3">
            <fieldset>
              <legend className="font-semibold">Criterion {i + 1}</legend>
              <label htmlFor={`${id}-c${i}-title`} className="block text-sm font-medium">
                Criterion {i + 1}: title
              </label>
              <input
                id={`${id}-c${i}-title`}
                className={input}
                value={c.title}
                onChange={(e) => setCriterion(i, { title: e.target.value })}
              />
              <label htmlFor={`${id}-c${i}-description`} className="mt-2 block text-sm font-medium">
                What it assesses
              </label>
              <input
                id={`${id}-c${i}-description`}
                className={input}
                value={c.description}
                onChange={(e) => setCriterion(i, { description: e.target.value })}
              />
              <div className="mt-2 flex items-center gap-2">
                <input
                  id={`${id}-c${i}-critical`}
                  type="checkbox"
                  checked={c.critical ?? false}
                  onChange={(e) => setCriterion(i, { critical: e.target.checked })}
                />
                <label htmlFor={`${id}-c${i}-critical`} className="text-sm">
                  Critical (scope, safety, red flags): below Competent fails whatever the rule
                </label>
              </div>
              <table className="mt-2 w-full text-sm">
                <caption className="text-left font-medium">Levels, lowest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Points</th>
                    <th scope="col">Label</th>
                    <th scope="col">Descriptor</th>
                  </tr>
                </thead>
                <tbody>
                  {c.levels.map((l, j) => {
                    const setLevel = (patch: Partial<Level>) =>
                      setCriterion(i, { levels: c.levels.map((x, k) => (k === j ? { ...x, ...patch } : x)) });
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: levels are edited in place by position
                      <tr key={j}>
                        <td>
                          <input
                            type="number"
                            min={0}
                            max={100}
                            aria-label={`Criterion ${i + 1}, level ${j + 1}: points`}
                            className="h-9 w-16 rounded-md border border-slate-300 px-1"
                            value={l.points}
                            onChange={(e) => setLevel({ points: Number(e.target.value) })}
                          />
                        </td>
                        <td>
                          <input
                            aria-label={`Criterion ${i + 1}, level ${j + 1}: label`}
                            className="h-9 w-32 rounded-md border border-slate-300 px-1"
                            value={l.label}
                            onChange={(e) => setLevel({ label: e.target.value })}
                          />
                        </td>
                        <td>
                          <input
                            aria-label={`Criterion ${i + 1}, level ${j + 1}: descriptor`}
                            className="h-9 w-full rounded-md border border-slate-300 px-1"
                            value={l.descriptor}
                            onChange={(e) => setLevel({ descriptor: e.target.value })}
                          />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Button
                size="sm"
                variant="ghost"
                className="mt-2 text-danger"
                onClick={() => setMeta({ criteria: criteria.filter((_, j) => j !== i) })}
              >
                Delete criterion {i + 1}
              </Button>
            </fieldset>
          </li>
        ))}
      </ol>
      <Button
        variant="secondary"
        onClick={() =>
          setMeta({
            criteria: [
              ...criteria,
              {
                id: `criterion-${criteria.length + 1}`,
                title: "",
                description: "",
                levels: structuredClone(NEW_LEVELS),
              },
            ],
          })
        }
      >
        Add a criterion
      </Button>
      <div aria-live="polite" className="rounded-lg border border-slate-300 p-3 text-sm" data-testid="rubric-check">
        {problems.length === 0 ? (
          <p className="font-semibold text-green-800">
            A learner at the top level everywhere passes, and one at the lowest level on any criterion does not.
          </p>
        ) : (
          <ul className="list-disc pl-5 text-danger">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
      </div>
      <PartSaveBar
        label="Save practical"
        what="the practical"
        state={part.state}
        onSave={async () => {
          const saved = await part.save(draft, base.current, practical);
          if (saved) base.current = practicalOf(saved.document);
        }}
      />
    </div>
  );
}

export default function StudioPracticalPage() {
  const draft = useStudioDraft().data;
  return <StudioSection title="Practical assessment">{draft && <PracticalEditor draft={draft} />}</StudioSection>;
}
