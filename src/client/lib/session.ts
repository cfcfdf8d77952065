import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, getOrNullOn401 } from "#client/lib/api-client.ts";
import { queryClient } from "#client/lib/query-client.ts";
import type { CurrentUser } from "#shared/schemas/auth.ts";

export const getCurrentUser = () => getOrNullOn401<CurrentUser>("/api/auth/user");

export const currentUserQueryOptions = () => queryOptions({ queryKey: ["/api/auth/user"], queryFn: getCurrentUser });

/** Who is signed in; the header, the routes and several pages read it. */
export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions());
  return { user: query.data ?? null, loading: query.isPending, isAuthenticated: !!query.data };
}

export async function signOut() {
  await api.post("/api/auth/sign-out");
  queryClient.clear();
}
