import { paths } from "#client/config/paths.ts";

/** A submission's files, each a download link (served only to its learner, assessors and admins). */
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
