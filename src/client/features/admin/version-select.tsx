import { SelectField } from "#client/components/ui/form.tsx";
import { useCourse } from "#client/lib/courses.ts";

/**
 * Chooses a course (or every course, with `everyLabel`); choosing one calls `onChange`, where the
 * caller also resets its version, which belongs to the course before.
 */
export function CourseSelect({
  courses,
  value,
  onChange,
  everyLabel,
}: {
  courses: { id: string; title: string }[];
  value: string;
  onChange: (courseId: string) => void;
  everyLabel?: string;
}) {
  return (
    <SelectField label="Course" value={value} onChange={(e) => onChange(e.target.value)} className="max-w-md">
      {everyLabel !== undefined && <option value="">{everyLabel}</option>}
      {courses.map((c) => (
        <option key={c.id} value={c.id}>
          {c.title}
        </option>
      ))}
    </SelectField>
  );
}

/** The published versions of a course, 1 to the latest (versions are numbered without gaps, decision 0055). */
export function usePublishedVersions(courseId: string): number[] {
  const latest = useCourse(courseId).data?.latestVersion ?? 0;
  return Array.from({ length: latest }, (_, i) => i + 1);
}

/**
 * Chooses one published version of a course, or every version when `everyLabel` is given. Shown only
 * once the course has more than one version: with one, every filter means the same.
 */
export function VersionSelect({
  versions,
  value,
  onChange,
  everyLabel,
  className,
}: {
  versions: number[];
  value: number | undefined;
  onChange: (version: number | undefined) => void;
  everyLabel?: string;
  className?: string;
}) {
  if (versions.length < 2) return null;
  const latest = versions.at(-1);
  return (
    <SelectField
      label="Course version"
      className={className}
      value={value === undefined ? "" : String(value)}
      onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
    >
      {everyLabel !== undefined && <option value="">{everyLabel}</option>}
      {[...versions].reverse().map((v) => (
        <option key={v} value={v}>
          Version {v}
          {v === latest ? " (latest)" : ""}
        </option>
      ))}
    </SelectField>
  );
}
