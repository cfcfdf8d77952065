import { diffWords } from "diff";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { Card, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { formatLongDate } from "#shared/format.ts";
import type { VersionKind } from "#shared/schemas/studio.ts";
import { failedChecksOf, usePublish, useVersion, useVersions } from "./api.ts";
import { type LessonChange, type PartChanges, sectionOfProblem, summarise } from "./publish-summary.ts";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

function Part({ title, changes, extra }: { title: string; changes: PartChanges; extra?: string }) {
  const none = changes.added.length + changes.changed.length + changes.removed.length === 0;
  return (
    <section aria-label={title} className="mt-4">
      <h3 className="font-semibold">{title}</h3>
      {none && !extra ? (
        <p className="text-sm text-muted">No change.</p>
      ) : (
        <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
          {changes.added.map((x) => (
            <li key={`a-${x}`}>Added: {x}</li>
          ))}
          {changes.changed.map((x) => (
            <li key={`c-${x}`}>Changed: {x}</li>
          ))}
          {changes.removed.map((x) => (
            <li key={`r-${x}`}>Removed: {x}</li>
          ))}
          {extra && <li>{extra}</li>}
        </ul>
      )}
    </section>
  );
}

/** A lesson's text before and after, word by word: removed words struck through, added ones underlined. */
function LessonDiff({ change }: { change: LessonChange }) {
  const parts = diffWords(change.before, change.after);
  return (
    <details className="mt-2 rounded border border-line p-2 text-sm">
      <summary className="cursor-pointer font-medium">Text of “{change.title}”</summary>
      <p className="mt-2 text-xs text-muted">Removed words are struck through; added words are underlined.</p>
      <pre className="mt-2 whitespace-pre-wrap break-words font-sans">
        {parts.map((part, i) =>
          part.added ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their place
            <ins key={i} className="bg-green-100 text-green-900 underline">
              {part.value}
            </ins>
          ) : part.removed ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their place
            <del key={i} className="bg-red-100 text-red-900 line-through">
              {part.value}
            </del>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their place
            <span key={i}>{part.value}</span>
          ),
        )}
      </pre>
    </details>
  );
}

function FailedChecks({ courseId, problems, id }: { courseId: string; problems: string[]; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border-2 border-red-300 bg-red-50 p-4 text-sm text-red-950">
      <h2 id={id} tabIndex={-1} className="text-base font-semibold">
        Fix {problems.length === 1 ? "this check" : `these ${problems.length} checks`} before publishing
      </h2>
      <ul className="mt-2 space-y-2">
        {problems.map((problem) => {
          const place = sectionOfProblem(problem);
          return (
            <li key={problem}>
              <span className="break-words">{problem}</span>{" "}
              <Link to={paths.studioCourse(courseId, place.section)} className="font-semibold underline">
                {place.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default function StudioPublishPage() {
  const courseId = useStudioCourseId();
  const draft = useStudioDraft();
  const versions = useVersions(courseId);
  const latest = versions.data?.at(-1)?.version ?? null;
  const published = useVersion(courseId, latest);
  const publish = usePublish(courseId);
  const [kind, setKind] = useState<VersionKind>("minor");
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState("");
  const [refused, setRefused] = useState<string[] | null>(null);
  const [failure, setFailure] = useState("");
  const result = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (publish.isSuccess) result.current?.focus();
  }, [publish.isSuccess]);
  useEffect(() => {
    if (refused) document.getElementById("failed-checks")?.focus();
  }, [refused]);

  if (!draft.data || versions.isPending || (latest !== null && published.isPending))
    return (
      <StudioSection title="Publish">
        <Spinner label="Comparing the draft with the published version" />
      </StudioSection>
    );
  const summary = summarise(draft.data.document, published.data?.document ?? null);
  const chosen = summary.majorRequired ? "major" : kind;
  const problems = refused ?? draft.data.problems;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (publish.isPending) return;
    if (!note.trim()) {
      setNoteError("Write a change note: learners read it on the course page.");
      document.getElementById("publish-note")?.focus();
      return;
    }
    setNoteError("");
    setFailure("");
    setRefused(null);
    const baseRevision = draft.data?.revision ?? 0;
    publish.mutate(
      { kind: chosen, note: note.trim(), baseRevision },
      {
        onError: (error) => {
          const checks = failedChecksOf(error);
          if (checks) setRefused(checks);
          else {
            setFailure(refusal(error));
            requestAnimationFrame(() => document.getElementById("publish-failure")?.focus());
          }
        },
      },
    );
  };

  if (publish.isSuccess)
    return (
      <StudioSection title="Publish">
        <Card className="p-4 sm:p-6">
          <h2 ref={result} tabIndex={-1} className="text-lg font-semibold">
            Version {publish.data.version} published
          </h2>
          <p className="mt-2 text-sm">
            A {publish.data.kind} version, published on {formatLongDate(publish.data.publishedAt)}:{" "}
            {publish.data.kind === "minor"
              ? "every learner sees it now."
              : "new enrolments start on it; learners in progress are offered the move."}
          </p>
          <p className="mt-3 flex flex-wrap gap-3 text-sm">
            <Link to={paths.studioCourse(courseId, "versions")} className="font-semibold text-brand-700 underline">
              See every version
            </Link>
            <Link to={paths.course(courseId)} className="font-semibold text-brand-700 underline">
              Open the course page
            </Link>
          </p>
        </Card>
      </StudioSection>
    );

  return (
    <StudioSection title="Publish">
      <div className="space-y-6">
        {problems.length > 0 && <FailedChecks courseId={courseId} problems={problems} id="failed-checks" />}
        <Card className="p-4 sm:p-6">
          <h2 className="text-lg font-semibold">
            {summary.first ? "First version: everything in the draft is new" : `What changes against version ${latest}`}
          </h2>
          <section aria-label="Settings" className="mt-4">
            <h3 className="font-semibold">Settings</h3>
            <p className="text-sm">
              {summary.settingsChanged.length === 0 ? "No change." : `Changed: ${summary.settingsChanged.join(", ")}.`}
            </p>
          </section>
          <Part title="Lessons" changes={summary.lessons} />
          {summary.lessonTexts.map((change) => (
            <LessonDiff key={change.id} change={change} />
          ))}
          <Part title="Module quiz questions" changes={summary.questions} />
          <Part
            title="Final exam"
            changes={summary.exam}
            extra={summary.exam.settingsChanged ? "Its time limit, pass mark, draw or blueprint changed." : undefined}
          />
          <Part
            title="Practical rubric"
            changes={summary.rubric}
            extra={summary.rubric.briefChanged ? "Its brief changed." : undefined}
          />
        </Card>

        <form onSubmit={submit} noValidate aria-labelledby="publish-form" className="space-y-4">
          <h2 id="publish-form" className="text-lg font-semibold">
            Publish the draft
          </h2>
          <fieldset>
            <legend className="font-medium">Kind of change</legend>
            {summary.majorRequired && (
              <p className="text-sm text-muted">This must be a major version: {summary.reasonsForMajor.join("; ")}.</p>
            )}
            <div className="mt-2 space-y-2">
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="kind"
                  value="minor"
                  checked={chosen === "minor"}
                  disabled={summary.majorRequired}
                  onChange={() => setKind("minor")}
                  className="mt-1 h-4 w-4"
                />
                <span>
                  <span className="font-medium">Minor</span>: wording, figures and typo fixes. Every learner, in
                  progress or not, sees it at once; nobody redoes anything.
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="kind"
                  value="major"
                  checked={chosen === "major"}
                  onChange={() => setKind("major")}
                  className="mt-1 h-4 w-4"
                />
                <span>
                  <span className="font-medium">Major</span>: lessons, questions, the exam or the rubric change. New
                  enrolments start on it; learners in progress stay on their version until they choose to move, keeping
                  the lessons and quizzes that did not change; learners who finished keep their certificate.
                </span>
              </label>
            </div>
          </fieldset>
          <div>
            <label htmlFor="publish-note" className="mb-1 block text-sm font-medium">
              Change note (learners read it on the course page)
            </label>
            <textarea
              id="publish-note"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              rows={3}
              maxLength={2000}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? "publish-note-error" : undefined}
              className="w-full rounded-lg border border-slate-300 bg-white p-3 text-base aria-[invalid=true]:border-danger"
            />
            {noteError && (
              <p id="publish-note-error" className="mt-1 text-sm font-medium text-danger">
                {noteError}
              </p>
            )}
          </div>
          {failure && (
            <p id="publish-failure" tabIndex={-1} role="alert" className="text-sm font-medium text-danger">
              Not published: {failure}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" aria-disabled={publish.isPending}>
              {publish.isPending ? "Publishing…" : `Publish as ${chosen}`}
            </Button>
            <p role="status" className="text-sm">
              {publish.isPending ? "Publishing: checking the draft and writing the version…" : ""}
            </p>
          </div>
        </form>
      </div>
    </StudioSection>
  );
}
