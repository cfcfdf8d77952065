import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import { type LessonConflict, type LessonSaved, lessonConflictSchema } from "#shared/schemas/studio-editors.ts";

export type Lesson = CourseDocument["modules"][number]["lessons"][number];
export type Media = CourseDocument["media"][number];

/** Where the author's text stands: the status line under the toolbar says it in words. */
export type SaveState =
  | { kind: "saved" }
  | { kind: "pending" }
  | { kind: "saving" }
  | { kind: "failed"; message: string }
  | { kind: "blocked"; message: string }
  | { kind: "conflict"; theirs: Lesson | null; revision: number };

const sameLesson = (a: Lesson | null, b: Lesson | null) => JSON.stringify(a) === JSON.stringify(b);
const backupKey = (courseId: string, lessonId: string) => `studio:lesson:${courseId}:${lessonId}`;
/** How long the author may pause before their text is sent. */
const AUTOSAVE_DELAY_MS = 800;

/** The author's unsaved copy of a lesson kept in this browser, so a closed tab or a lost network loses no text. */
export function readBackup(courseId: string, lessonId: string): { lesson: Lesson; media: Media[] } | null {
  try {
    const raw = localStorage.getItem(backupKey(courseId, lessonId));
    return raw ? (JSON.parse(raw) as { lesson: Lesson; media: Media[] }) : null;
  } catch {
    return null;
  }
}

/**
 * Autosave for one lesson (docs/decisions/0060, "Editors"): each change is kept in this browser at
 * once and sent a moment after the author pauses, one lesson at a time with the revision it is based
 * on. A 409 whose lesson is still the one this editor started from (someone saved another part of
 * the course) is saved again on the new revision; otherwise the author sees both and chooses.
 */
export function useLessonAutosave(courseId: string, base: { revision: number; lesson: Lesson }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SaveState>({ kind: "saved" });
  const baseRef = useRef(base);
  const currentRef = useRef<{ lesson: Lesson; media: Media[]; problem: string | null }>({
    lesson: base.lesson,
    media: [],
    problem: null,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef(false);
  const again = useRef(false);
  const held = useRef(false);

  const keepInDraft = useCallback(
    (saved: LessonSaved, media: Media[]) => {
      queryClient.setQueryData<Draft>(queryKeys.studio.draft(courseId), (draft) => {
        if (!draft) return draft;
        const names = new Set(media.map((m) => m.name));
        return {
          ...draft,
          revision: saved.revision,
          updatedAt: saved.updatedAt,
          problems: saved.problems,
          document: {
            ...draft.document,
            modules: draft.document.modules.map((m) => ({
              ...m,
              lessons: m.lessons.map((l) => (l.id === saved.lesson.id ? saved.lesson : l)),
            })),
            media: [...draft.document.media.filter((m) => !names.has(m.name)), ...media],
          },
        };
      });
    },
    [queryClient, courseId],
  );

  const save = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (held.current) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    const { lesson, media, problem } = currentRef.current;
    if (problem) {
      setState({ kind: "blocked", message: problem });
      return;
    }
    if (sameLesson(lesson, baseRef.current.lesson) && media.length === 0) {
      setState({ kind: "saved" });
      localStorage.removeItem(backupKey(courseId, lesson.id));
      return;
    }
    inFlight.current = true;
    setState({ kind: "saving" });
    try {
      const saved = await dataOf(
        api.PUT("/api/studio/courses/{courseId}/lessons/{lessonId}", {
          params: { path: { courseId, lessonId: lesson.id } },
          body: { baseRevision: baseRef.current.revision, lesson, media },
        }),
      );
      baseRef.current = { revision: saved.revision, lesson: saved.lesson };
      keepInDraft(saved, media);
      const current = currentRef.current;
      if (current.media === media) currentRef.current = { ...current, media: [] };
      inFlight.current = false;
      if (sameLesson(currentRef.current.lesson, saved.lesson)) {
        localStorage.removeItem(backupKey(courseId, lesson.id));
        setState({ kind: "saved" });
      } else again.current = true;
    } catch (error) {
      inFlight.current = false;
      const conflict = conflictOf(error);
      if (conflict && sameLesson(conflict.lesson, baseRef.current.lesson)) {
        // Someone saved another part of the course: this lesson is as we found it, so save on their revision.
        baseRef.current = { ...baseRef.current, revision: conflict.revision };
        again.current = true;
      } else if (conflict) {
        held.current = true;
        setState({ kind: "conflict", theirs: conflict.lesson, revision: conflict.revision });
      } else {
        setState({
          kind: "failed",
          message:
            error instanceof ApiError && error.serverMessage
              ? error.serverMessage
              : "The server could not be reached. Your text is kept in this browser.",
        });
      }
    }
    if (again.current) {
      again.current = false;
      await save();
    }
  }, [courseId, keepInDraft]);

  /** The author changed the lesson: keep it here now, send it when they pause. */
  const change = useCallback(
    (lesson: Lesson, problem: string | null, media?: Media[]) => {
      const added = media ?? [];
      const all = [...currentRef.current.media, ...added];
      currentRef.current = { lesson, media: all, problem };
      try {
        localStorage.setItem(backupKey(courseId, lesson.id), JSON.stringify({ lesson, media: all }));
      } catch {
        // A full or disabled storage leaves the text in the editor only.
      }
      if (held.current) return;
      setState(problem ? { kind: "blocked", message: problem } : { kind: "pending" });
      clearTimeout(timer.current);
      if (!problem) timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    },
    [courseId, save],
  );

  /** After a conflict: the author's choice becomes the lesson, on the revision the server named. */
  const resolve = useCallback(
    (choice: "mine" | "theirs", revision: number, theirs: Lesson | null) => {
      held.current = false;
      baseRef.current = { revision, lesson: theirs ?? baseRef.current.lesson };
      if (choice === "theirs" && theirs) {
        currentRef.current = { ...currentRef.current, lesson: theirs };
        localStorage.removeItem(backupKey(courseId, theirs.id));
        setState({ kind: "saved" });
        return;
      }
      void save();
    },
    [courseId, save],
  );

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!sameLesson(currentRef.current.lesson, baseRef.current.lesson)) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      clearTimeout(timer.current);
    };
  }, []);

  return { state, change, save, resolve, mine: () => currentRef.current.lesson };
}

function conflictOf(error: unknown): LessonConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    const parsed = lessonConflictSchema.safeParse(JSON.parse(error.body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
