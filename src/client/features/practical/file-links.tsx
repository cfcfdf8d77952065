import { paths } from "#client/config/paths.ts";
import { isRecording } from "#shared/practical-evidence.ts";

/** A submission's files, each a download link (served only to its learner, the course's assessors and admins). */
export function FileLinks({ files, className }: { files: { id: string; name: string }[]; className: string }) {
  if (files.length === 0) return null;
  return (
    <ul className={className}>
      {files.map((f) => (
        <li key={f.id}>
          <a className="text-brand-700 underline" href={paths.practicalFile(f.id)} download>
            {f.name}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The session's recordings, each in the browser's own player: its controls take the keyboard (Tab to
 * them, Space to play and pause, arrows to seek) and follow forced colours (docs/decisions/0053).
 */
export function Recordings({ files }: { files: { id: string; name: string; contentType: string }[] }) {
  const recordings = files.filter((f) => isRecording(f.contentType));
  if (recordings.length === 0) return null;
  return (
    <section aria-labelledby="recordings-heading" className="mt-6">
      <h2 id="recordings-heading" className="font-semibold">
        Recording of the session
      </h2>
      {recordings.map((f) => (
        <figure key={f.id} className="mt-2">
          {f.contentType.startsWith("video/") ? (
            // biome-ignore lint/a11y/useMediaCaption: a learner's own session recording has no caption track; their transcript, when sent, is beside it.
            <video
              controls
              preload="metadata"
              src={paths.practicalFile(f.id)}
              aria-label={`Recording ${f.name}`}
              className="w-full max-w-xl"
            />
          ) : (
            // biome-ignore lint/a11y/useMediaCaption: a learner's own session recording has no caption track; their transcript, when sent, is beside it.
            <audio controls preload="metadata" src={paths.practicalFile(f.id)} aria-label={`Recording ${f.name}`} />
          )}
          <figcaption className="text-sm text-muted">{f.name}</figcaption>
        </figure>
      ))}
    </section>
  );
}
