import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

// What is new for the signed-in person (decision 0056): the avatar's count and the notifications page.

/** Looked at again every minute and when the window regains focus, so the count follows new answers. */
export const useNotifications = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.notifications(),
    queryFn: () => dataOf(api.GET("/api/notifications")),
    enabled,
    refetchInterval: 60_000,
  });

export function useReadNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.POST("/api/notifications/read")),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications() }),
  });
}
