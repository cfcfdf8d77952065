import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, getOrNullOn401 } from "#client/lib/api-client.ts";
import { queryClient } from "#client/lib/query-client.ts";
import type { CurrentUser, SignUpInput } from "#shared/schemas/auth.ts";

export const getCurrentUser = () => getOrNullOn401<CurrentUser>("/api/auth/user");

export const currentUserQueryOptions = () => queryOptions({ queryKey: ["/api/auth/user"], queryFn: getCurrentUser });

export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions());
  return { user: query.data ?? null, loading: query.isPending, isAuthenticated: !!query.data };
}

export async function signIn(email: string, password: string) {
  await api.post("/api/auth/sign-in/email", { email, password });
}

export async function signUp(input: SignUpInput) {
  await api.post("/api/auth/sign-up/email", { ...input, name: `${input.firstName} ${input.lastName}` });
}

export async function signOut() {
  await api.post("/api/auth/sign-out");
  queryClient.clear();
}

export async function requestPasswordReset(email: string) {
  await api.post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
}

export async function resetPassword(token: string, newPassword: string) {
  await api.post("/api/auth/reset-password", { token, newPassword });
}
