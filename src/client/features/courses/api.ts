import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { Lesson } from "#shared/schemas/courses.ts";
import type { lessonCompletedSchema } from "#shared/schemas/learning.ts";

const enc = encodeURIComponent;

export const getLesson = (courseId: string, lessonId: string) =>
  api.get<Lesson>(`/api/courses/${enc(courseId)}/lessons/${enc(lessonId)}`);
export const lessonQueryOptions = (courseId: string, lessonId: string) =>
  queryOptions({
    queryKey: queryKeys.courses.lesson(courseId, lessonId),
    queryFn: () => getLesson(courseId, lessonId),
  });
export const useLesson = (courseId: string, lessonId: string) => useQuery(lessonQueryOptions(courseId, lessonId));

/** Marks a lesson done; the course (states, unlocks, percent, its lessons) and My Learning are read again. */
export function useCompleteLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lessonId: string) =>
      api.post<z.infer<typeof lessonCompletedSchema>>(
        `/api/progress/${enc(courseId)}/lessons/${enc(lessonId)}/complete`,
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
      ]),
  });
}
