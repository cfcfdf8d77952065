import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { type FieldPath, useFieldArray, useForm } from "react-hook-form";
import { CourseCardView } from "#client/components/course-card.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { SelectField, TextField } from "#client/components/ui/form.tsx";
import { levelSchema } from "#shared/schemas/courses.ts";
import type { Draft } from "#shared/schemas/studio.ts";
import { useSaveOutcome, useSaveSettings } from "./api.ts";
import { errorIdFor, FieldErrorText } from "./field-error.tsx";
import {
  cardOf,
  formOf,
  GRADIENTS,
  type SettingsForm,
  settingsDifferences,
  settingsFormSchema,
  toCourseFile,
} from "./settings-form.ts";
import { StaleDraftNotice } from "./stale-draft.tsx";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

function SettingsEditor({ draft }: { draft: Draft }) {
  const courseId = useStudioCourseId();
  const save = useSaveSettings(courseId);
  const [stale, setStale] = useState<Draft | null>(null);
  const [status, setStatus] = useState("");
  const statusId = useId();
  const form = useForm<SettingsForm, unknown, Parameters<typeof toCourseFile>[0]>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: formOf(draft.document.course),
  });
  const { errors } = form.formState;
  const outcomes = useFieldArray({ control: form.control, name: "learningOutcomes" });
  const values = form.watch();
  const errorOf = (name: FieldPath<SettingsForm>) =>
    name.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], errors) as
      | { message?: string; type: string }
      | undefined;
  const field = (name: FieldPath<SettingsForm>) => ({
    ...form.register(name),
    errorId: errorOf(name) ? errorIdFor(name) : undefined,
  });
  const below = (name: FieldPath<SettingsForm>) => <FieldErrorText name={name} error={errorOf(name) as never} />;

  const outcome = useSaveOutcome({
    onSaved: (saved) => {
      // The notice's button had focus: it goes to the save button the notice leaves behind.
      if (stale) requestAnimationFrame(() => document.getElementById("save-settings")?.focus());
      setStale(null);
      form.reset(formOf(saved.document.course));
    },
    onStale: setStale,
    setStatus,
  });
  const send = (input: Parameters<typeof toCourseFile>[0], baseRevision: number, before: Draft) => {
    if (save.isPending) return;
    setStatus("Saving…");
    save.mutate({ baseRevision, course: toCourseFile(input, before.document.course) }, outcome);
  };
  const submit = form.handleSubmit((input) => send(input, (stale ?? draft).revision, stale ?? draft));

  const moveOutcome = (from: number, to: number) => {
    outcomes.move(from, to);
    setStatus(`Outcome moved to position ${to + 1} of ${outcomes.fields.length}.`);
    requestAnimationFrame(() => document.getElementById(`outcome-${to}`)?.focus());
  };
  const removeOutcome = (index: number) => {
    outcomes.remove(index);
    setStatus("Outcome removed.");
    const next = Math.min(index, outcomes.fields.length - 2);
    requestAnimationFrame(() => document.getElementById(next >= 0 ? `outcome-${next}` : "add-outcome")?.focus());
  };

  const counts = {
    moduleCount: draft.document.modules.length,
    lessonCount: draft.document.modules.reduce((n, m) => n + m.lessons.length, 0),
  };
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <form onSubmit={submit} noValidate aria-label="Course settings" className="space-y-6">
        {stale && (
          <StaleDraftNotice
            revision={stale.revision}
            differences={settingsDifferences(form.getValues(), formOf(stale.document.course))}
            busy={save.isPending}
            onKeepMine={() => void submit()}
            onTakeTheirs={() => {
              form.reset(formOf(stale.document.course));
              setStale(null);
              setStatus(`Their settings are in the form (revision ${stale.revision}).`);
              document.getElementById("settings-title")?.focus();
            }}
          />
        )}
        <fieldset className="space-y-4">
          <legend className="text-lg font-semibold">The course</legend>
          <div>
            <TextField {...field("title")} id="settings-title" label="Title" />
            {below("title")}
          </div>
          <div>
            <label htmlFor="settings-description" className="mb-1 block text-sm font-medium text-slate-800">
              Description
            </label>
            <textarea
              {...form.register("description")}
              id="settings-description"
              rows={4}
              aria-invalid={errorOf("description") ? true : undefined}
              aria-describedby={errorOf("description") ? errorIdFor("description") : undefined}
              className="w-full rounded-lg border border-slate-300 bg-white p-3 text-base aria-[invalid=true]:border-danger"
            />
            {below("description")}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <SelectField {...field("level")} label="Level">
                {levelSchema.options.map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </SelectField>
              {below("level")}
            </div>
            <div>
              <TextField
                {...field("price")}
                label="Price (US dollars)"
                inputMode="decimal"
                hint="0 for a free course."
              />
              {below("price")}
            </div>
            <div>
              <TextField {...field("duration")} label="Duration" hint="As learners read it, e.g. 6 weeks." />
              {below("duration")}
            </div>
            <div>
              <TextField {...field("studyHours")} label="Study hours (optional)" inputMode="decimal" />
              {below("studyHours")}
            </div>
            <div>
              <SelectField {...field("gradient")} label="Card colour">
                {!GRADIENTS.some((g) => g.value === values.gradient) && (
                  <option value={values.gradient}>Current ({values.gradient})</option>
                )}
                {GRADIENTS.map((g) => (
                  <option key={g.value} value={g.value}>
                    {g.label}
                  </option>
                ))}
              </SelectField>
              {below("gradient")}
            </div>
            <div>
              <TextField
                {...field("marketplaceUrl")}
                label="Marketplace URL (optional)"
                type="url"
                hint="When set, Buy Now leads there instead of the academy's checkout."
              />
              {below("marketplaceUrl")}
            </div>
          </div>
          <div className="flex items-start gap-2">
            <input
              {...form.register("comingSoon")}
              id="settings-coming-soon"
              type="checkbox"
              className="mt-1 h-5 w-5"
            />
            <label htmlFor="settings-coming-soon" className="text-sm">
              <span className="font-medium">Coming soon</span>
              <span className="block text-muted">Listed in the catalogue, but nobody can buy or open it yet.</span>
            </label>
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-lg font-semibold">Learning outcomes</legend>
          <p className="text-sm text-muted">
            What a learner can do after the course, in the order the course page lists them.
          </p>
          {errorOf("learningOutcomes")?.message && (
            <p id={errorIdFor("learningOutcomes")} className="mt-1 text-sm font-medium text-danger">
              {errorOf("learningOutcomes")?.message}
            </p>
          )}
          <ol className="mt-3 space-y-3">
            {outcomes.fields.map((item, index) => {
              const name = `learningOutcomes.${index}.text` as const;
              const error = errorOf(name);
              return (
                <li key={item.id} className="flex flex-wrap items-start gap-2">
                  <div className="min-w-0 flex-1 basis-64">
                    <label htmlFor={`outcome-${index}`} className="sr-only">
                      Outcome {index + 1}
                    </label>
                    <input
                      {...form.register(name)}
                      id={`outcome-${index}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorIdFor(name) : undefined}
                      className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base aria-[invalid=true]:border-danger"
                    />
                    {below(name)}
                  </div>
                  <div className="flex gap-1">
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      disabled={index === 0}
                      aria-label={`Move outcome ${index + 1} up`}
                      onClick={() => moveOutcome(index, index - 1)}
                    >
                      <ArrowUp size={16} aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      disabled={index === outcomes.fields.length - 1}
                      aria-label={`Move outcome ${index + 1} down`}
                      onClick={() => moveOutcome(index, index + 1)}
                    >
                      <ArrowDown size={16} aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove outcome ${index + 1}`}
                      onClick={() => removeOutcome(index)}
                    >
                      <Trash2 size={16} aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
          <Button
            id="add-outcome"
            type="button"
            variant="secondary"
            size="sm"
            className="mt-3"
            onClick={() => outcomes.append({ text: "" })}
          >
            Add outcome
          </Button>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-lg font-semibold">Search engines</legend>
          <div>
            <TextField {...field("seo.title")} label="Search title" />
            {below("seo.title")}
          </div>
          <div>
            <TextField {...field("seo.description")} label="Search description" />
            {below("seo.description")}
          </div>
          <div>
            <TextField {...field("seo.keywords")} label="Keywords" hint="Separated by commas." />
            {below("seo.keywords")}
          </div>
        </fieldset>

        <div className="flex flex-wrap items-center gap-3">
          <Button id="save-settings" type="submit" aria-disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save settings"}
          </Button>
          <p id={statusId} role="status" className="text-sm">
            {status}
          </p>
        </div>
      </form>
      <aside aria-labelledby="card-preview">
        <h2 id="card-preview" className="mb-3 text-lg font-semibold">
          Catalogue card preview
        </h2>
        <p className="mb-2 text-xs text-muted">As learners will see it in the catalogue once published.</p>
        <CourseCardView course={cardOf(courseId, values, counts)} enrolled={false} />
      </aside>
    </div>
  );
}

export default function StudioSettingsPage() {
  const draft = useStudioDraft();
  return (
    <StudioSection title="Settings">
      {/* Keyed by course: another course's settings start a fresh form. */}
      {draft.data && <SettingsEditor key={draft.data.courseId} draft={draft.data} />}
    </StudioSection>
  );
}
