import { type DehydratedState, hydrate, QueryClient, type UseMutationOptions } from "@tanstack/react-query";

/**
 * Queries a server-rendered page arrived with (decision 0032): the page hydrates from them without
 * asking again. From the first navigation on, every read is fetched as usual.
 */
const fromServer = new Set<string>();

// Spec: no automatic retry, no polling, refetch on window focus, data always stale.
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: true,
        staleTime: 0,
        refetchOnMount: (query) => !fromServer.has(query.queryHash),
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** Fills the cache with the data the server rendered the page from. */
export function adoptServerData(state: DehydratedState) {
  hydrate(queryClient, state);
  for (const query of state.queries) fromServer.add(query.queryHash);
}

/** The person left the server-rendered page: its data is read again like any other from now on. */
export const endServerData = () => fromServer.clear();

/** What a page may add to a feature's mutation hook: its own callbacks (toasts, navigation). */
export type MutationConfig<TData, TVariables = void> = Omit<UseMutationOptions<TData, Error, TVariables>, "mutationFn">;
