import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { api, dataOf, refusal } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { formatLongDate } from "#shared/format.ts";
import type { CourseDetail } from "#shared/schemas/courses.ts";

/**
 * Moves the learner to the course's latest version (a bodiless POST); the course, its lessons and My
 * Learning are read again, as the new version counts them.
 */
function useMoveToLatest(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.POST("/api/courses/{courseId}/move-to-latest", { params: { path: { courseId } } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
      ]),
  });
}

/** A list in words: "a", "a and b", "a, b and c". */
const inWords = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items.at(-1)}` : (items[0] ?? "");

/**
 * On the course page of an older version a learner is in progress on (decision 0055): that a newer
 * version exists and what it changes, and "Move to the new version", confirmed with exactly what
 * carries over and what they will redo. After the move, focus goes to the message saying so.
 */
export function NewerVersionNotice({ course }: { course: CourseDetail }) {
  const move = useMoveToLatest(course.id);
  const [movedTo, setMovedTo] = useState<number | null>(null);
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (movedTo !== null) done.current?.focus();
  }, [movedTo]);

  if (movedTo !== null)
    return (
      <p
        ref={done}
        tabIndex={-1}
        role="status"
        className="mt-6 rounded-2xl border border-green-300 bg-green-50 p-4 text-sm font-medium text-green-900"
        data-testid="moved-to-latest"
      >
        You are now on version {movedTo} of this course.
      </p>
    );
  if (!course.move || course.newer.length === 0) return null;
  const { keeps, redo, newLessons } = course.move;
  const latest = course.newer.at(-1);
  return (
    <section aria-labelledby="newer-version-heading" className="mt-6" data-testid="newer-version">
      <Card className="border-blue-200 bg-blue-50 p-5 text-sm text-blue-950">
        <h2 id="newer-version-heading" className="text-base font-semibold">
          A newer version of this course is available
        </h2>
        <p className="mt-1">
          You are on version {course.version}. Version {course.latestVersion}
          {latest && <> was published on {formatLongDate(latest.publishedAt)}</>}. What changed:
        </p>
        <ul className="mt-2 list-disc pl-5">
          {course.newer.map((v) => (
            <li key={v.version}>
              Version {v.version} ({formatLongDate(v.publishedAt)}): {v.note}
            </li>
          ))}
        </ul>
        <p className="mt-2" data-testid="move-redo">
          {redo.length > 0
            ? `If you move, you will redo ${inWords(redo.map((r) => r.replace(/^The /, "the ")))}.`
            : "If you move, you redo nothing you have passed."}
          {newLessons.length > 0 && <> New lessons: {inWords(newLessons)}.</>}
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <ConfirmDialog
            trigger={<Button size="sm">Move to the new version</Button>}
            title={`Move to version ${course.latestVersion}?`}
            description={
              <>
                {keeps.length > 0 && <>You keep: {inWords(keeps)}. </>}
                {redo.length > 0 ? <>You will redo: {inWords(redo)}. </> : <>You redo nothing you have passed. </>}
                {newLessons.length > 0 && <>New lessons to complete: {inWords(newLessons)}. </>}
                Your earlier attempts stay on record, and you cannot move back.
              </>
            }
            confirmLabel="Move to the new version"
            onConfirm={() => move.mutate(undefined, { onSuccess: (result) => setMovedTo(result.version) })}
          />
          {move.isPending && <span role="status">Moving…</span>}
          {move.isError && (
            <span role="alert" className="font-medium text-red-800">
              {refusal(move.error, "The move did not go through. Please try again.")}
            </span>
          )}
        </div>
      </Card>
    </section>
  );
}
