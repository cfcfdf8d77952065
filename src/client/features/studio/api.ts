import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { Draft } from "#shared/schemas/studio.ts";

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
