import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryClient } from "#client/lib/query-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

export const getCurrentUser = () => dataOf(api.GET("/api/auth/user"));

// Many components read the user as a page renders; with stale-time 0 each later mount would ask
// again. One check per page load: it is read again on window focus and after sign-in or sign-out.
export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.currentUser(), queryFn: getCurrentUser, refetchOnMount: false });

/** Who is signed in; the header, the routes and several pages read it. */
export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions());
  return { user: query.data ?? null, loading: query.isPending, isAuthenticated: !!query.data };
}

/** After sign-in, sign-up or a profile change: everything that depends on the user is read again. */
export const refreshCurrentUser = () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });

export async function signOut() {
  // Better Auth's client loads with the first sign-out, not with every visitor's page (decision 0032).
  const { authCall, authClient } = await import("#client/lib/auth-client.ts");
  await authCall(authClient.signOut());
  queryClient.clear();
}
