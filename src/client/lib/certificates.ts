import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import type { MutationConfig } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { Certificate } from "#shared/schemas/certificates.ts";

/** Issues (or returns) the caller's certificate for a completed course; the course page asks for it. */
export function useIssueCertificate(courseId: string, config: MutationConfig<Certificate> = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = config;
  return useMutation({
    ...rest,
    mutationFn: () => dataOf(api.POST("/api/certificate", { body: { courseId } })),
    onSuccess: async (...args) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.courses.detail(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.certificates.course(courseId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.certificates.all() }),
      ]);
      await onSuccess?.(...args);
    },
  });
}
