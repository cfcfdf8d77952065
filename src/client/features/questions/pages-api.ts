import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

// What the questions pages use beyond the lesson's panel, kept out of api.ts, which the lesson's common
// questions load on the lesson page's first load.

/** A lesson with one of its questions open in the Questions panel. */
export const lessonQuestionPath = (courseId: string, lessonId: string, questionId: string) =>
  `/course/${courseId}/lesson/${lessonId}?question=${encodeURIComponent(questionId)}`;

/** What is new for the signed-in person (the avatar's menu reads the same query for its count). */
export const useNotifications = () =>
  useQuery({
    queryKey: queryKeys.notifications(),
    queryFn: () => dataOf(api.GET("/api/notifications")),
    refetchInterval: 60_000,
  });

export function useReadNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.POST("/api/notifications/read")),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications() }),
  });
}
