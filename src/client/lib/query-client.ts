import { QueryClient } from "@tanstack/react-query";

// Spec: no automatic retry, no polling, refetch on window focus, data always stale.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: true, staleTime: 0 },
    mutations: { retry: false },
  },
});
