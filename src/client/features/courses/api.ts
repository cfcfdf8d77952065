import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

export const getLesson = (courseId: string, lessonId: string) =>
  dataOf(api.GET("/api/courses/{courseId}/lessons/{lessonId}", { params: { path: { courseId, lessonId } } }));
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
      dataOf(
        api.POST("/api/progress/{courseId}/lessons/{lessonId}/complete", { params: { path: { courseId, lessonId } } }),
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myLearning() }),
      ]),
  });
}
