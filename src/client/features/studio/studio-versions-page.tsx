import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Spinner } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { formatLongDate } from "#shared/format.ts";
import { useRepublish, useVersions } from "./api.ts";
import { StudioSection, useStudioCourseId } from "./studio-section.tsx";

function Republish({ version }: { version: number }) {
  const courseId = useStudioCourseId();
  const republish = useRepublish(courseId);
  const toast = useToast();
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const noteId = `republish-note-${version}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (republish.isPending) return;
    setError("");
    republish.mutate(
      { version, note: note.trim() },
      {
        onSuccess: (done) => {
          toast({ title: "Published Again", description: `Version ${version} is now version ${done.version}.` });
          setNote("");
          requestAnimationFrame(() => document.getElementById("versions-title")?.focus());
        },
        onError: (failure) => {
          setError(refusal(failure));
          document.getElementById(noteId)?.focus();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="mt-2 flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1 basis-48">
        <label htmlFor={noteId} className="mb-1 block text-xs font-medium">
          Note for republishing version {version} (optional)
        </label>
        <input
          id={noteId}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${noteId}-error` : undefined}
          className="h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm"
        />
        {error && (
          <p id={`${noteId}-error`} className="mt-1 text-xs font-medium text-danger">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" size="sm" variant="secondary" aria-disabled={republish.isPending}>
        Republish as new version<span className="sr-only"> (version {version})</span>
      </Button>
    </form>
  );
}

export default function StudioVersionsPage() {
  const courseId = useStudioCourseId();
  const versions = useVersions(courseId);
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  return (
    <StudioSection title="Versions">
      <h2 id="versions-title" tabIndex={-1} className="sr-only">
        Published versions, newest first
      </h2>
      {versions.isPending ? (
        <Spinner label="Loading the versions" />
      ) : versions.isError ? (
        <p role="alert">{refusal(versions.error, "The versions could not be loaded.")}</p>
      ) : versions.data.length === 0 ? (
        <p className="text-muted">Nothing is published yet: learners cannot see this course.</p>
      ) : (
        <ol className="space-y-3">
          {[...versions.data].reverse().map((v, i) => (
            <li key={v.version} className="rounded-lg border border-line p-3">
              <p className="font-semibold">
                Version {v.version} <span className="font-normal text-muted">({v.kind})</span>
                {i === 0 && <span className="ml-2 text-sm font-normal text-muted">served now</span>}
              </p>
              <p className="mt-1 text-sm">{v.note}</p>
              <p className="mt-1 text-xs text-muted">
                {formatLongDate(v.publishedAt)} · {v.author ?? "imported from the course files"}
              </p>
              {isAdmin && i > 0 && <Republish version={v.version} />}
            </li>
          ))}
        </ol>
      )}
    </StudioSection>
  );
}
