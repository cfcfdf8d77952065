import { QueryClient, type UseMutationOptions } from "@tanstack/react-query";

// Spec: no automatic retry, no polling, refetch on window focus, data always stale.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: true, staleTime: 0 },
    mutations: { retry: false },
  },
});

/** What a page may add to a feature's mutation hook: its own callbacks (toasts, navigation). */
export type MutationConfig<TData, TVariables = void> = Omit<UseMutationOptions<TData, Error, TVariables>, "mutationFn">;
