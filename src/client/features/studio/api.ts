import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api, dataOf, refusal } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import {
  type CourseFile,
  type Draft,
  failedChecksSchema,
  type PutOutline,
  studioConflictSchema,
} from "#shared/schemas/studio.ts";

/** The courses the caller may edit (admins: every course; instructors: the ones assigned to them). */
export const useStudioCourses = () =>
  useQuery({ queryKey: queryKeys.studio.courses(), queryFn: () => dataOf(api.GET("/api/studio/courses")) });

/** Whether a new course may take this slug; asked only for a slug of the right form. */
export const useSlugCheck = (slug: string | null) =>
  useQuery({
    queryKey: queryKeys.studio.slug(slug ?? ""),
    queryFn: () => dataOf(api.GET("/api/studio/course-slug", { params: { query: { slug: slug ?? "" } } })),
    enabled: slug !== null,
    staleTime: 0,
  });

/** Starts a course (admins): its first draft. */
export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { slug: string; title: string }) => dataOf(api.POST("/api/studio/courses", { body })),
    onSuccess: (draft) => {
      queryClient.setQueryData(queryKeys.studio.draft(draft.courseId), draft);
      return queryClient.invalidateQueries({ queryKey: queryKeys.studio.courses() });
    },
  });
}

/** The course's draft (revision 0: its latest version's document, to start one from). */
export const useDraft = (courseId: string) =>
  useQuery({
    queryKey: queryKeys.studio.draft(courseId),
    queryFn: () => dataOf(api.GET("/api/studio/courses/{courseId}/draft", { params: { path: { courseId } } })),
    // An author's open draft is refreshed by their own saves and by a 409's copy, not behind their back.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Keeps the draft the server answered (a save, or the current draft a 409 carried) as the course's draft. */
export function useKeepDraft() {
  const queryClient = useQueryClient();
  return (draft: Draft) => {
    queryClient.setQueryData(queryKeys.studio.draft(draft.courseId), draft);
    void queryClient.invalidateQueries({ queryKey: queryKeys.studio.courses() });
  };
}

export const useVersions = (courseId: string) =>
  useQuery({
    queryKey: queryKeys.studio.versions(courseId),
    queryFn: () => dataOf(api.GET("/api/studio/courses/{courseId}/versions", { params: { path: { courseId } } })),
  });

/** Every account in the instructor role (admins assign them to courses). */
export const useInstructors = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.studio.instructors(),
    queryFn: () => dataOf(api.GET("/api/studio/instructors")),
    enabled,
  });

/** The draft as it is now, when a write was refused as stale (409 with `current`); null for any other failure. */
export function staleDraftOf(failure: unknown): Draft | null {
  if (!(failure instanceof ApiError) || failure.status !== 409) return null;
  try {
    const parsed = studioConflictSchema.safeParse(JSON.parse(failure.body));
    return parsed.success ? (parsed.data.current ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * What a part's save does with the answer: a saved draft (or, after a stale write, the draft as it is
 * now) becomes the course's draft; `onStale` gets the latter, and `setStatus` says what happened.
 */
export function useSaveOutcome(handlers: {
  onSaved: (draft: Draft) => void;
  onStale: (current: Draft) => void;
  setStatus: (status: string) => void;
}) {
  const keepDraft = useKeepDraft();
  return {
    onSuccess: (saved: Draft) => {
      keepDraft(saved);
      handlers.onSaved(saved);
      handlers.setStatus(`Saved (revision ${saved.revision}).`);
    },
    onError: (failure: unknown) => {
      const current = staleDraftOf(failure);
      if (!current) return handlers.setStatus(`Not saved: ${refusal(failure)}`);
      keepDraft(current);
      handlers.onStale(current);
      handlers.setStatus("Not saved: someone else saved the draft first. Choose what to keep.");
    },
  };
}

/** Saves the course's settings (course.json) on the draft's revision. */
export const useSaveSettings = (courseId: string) =>
  useMutation({
    mutationFn: (body: { baseRevision: number; course: CourseFile }) =>
      dataOf(api.PUT("/api/studio/courses/{courseId}/draft/course", { params: { path: { courseId } }, body })),
  });

/** Saves the modules and lessons, in order, by id and title. */
export const useSaveOutline = (courseId: string) =>
  useMutation({
    mutationFn: (body: PutOutline) =>
      dataOf(api.PUT("/api/studio/courses/{courseId}/draft/outline", { params: { path: { courseId } }, body })),
  });

/** One published version with its document (the publish page compares the draft with the latest). */
export const useVersion = (courseId: string, version: number | null) =>
  useQuery({
    queryKey: queryKeys.studio.version(courseId, version ?? 0),
    queryFn: () =>
      dataOf(
        api.GET("/api/studio/courses/{courseId}/versions/{version}", {
          params: { path: { courseId, version: version ?? 0 } },
        }),
      ),
    enabled: version !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Publishes the draft at its revision; the versions and the list are read again. */
export function usePublish(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { kind: "minor" | "major"; note: string; baseRevision: number }) =>
      dataOf(api.POST("/api/studio/courses/{courseId}/publish", { params: { path: { courseId } }, body })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.studio.versions(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.studio.draft(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.studio.courses() }),
      ]),
  });
}

/** Admins: an earlier version's content published again as the next version. */
export function useRepublish(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ version, note }: { version: number; note: string }) =>
      dataOf(
        api.POST("/api/studio/courses/{courseId}/versions/{version}/republish", {
          params: { path: { courseId, version } },
          body: note ? { note } : undefined,
        }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.studio.versions(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.studio.courses() }),
      ]),
  });
}

/** The checks a refused publish lists (422), or null for any other failure. */
export function failedChecksOf(failure: unknown): string[] | null {
  if (!(failure instanceof ApiError) || failure.status !== 422) return null;
  try {
    const parsed = failedChecksSchema.safeParse(JSON.parse(failure.body));
    return parsed.success ? parsed.data.problems : null;
  } catch {
    return null;
  }
}
