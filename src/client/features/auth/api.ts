import { api, callBetterAuth, dataOf } from "#client/lib/api-client.ts";
import type { PasswordResetRequest, SignUpInput } from "#shared/schemas/auth.ts";

export async function signIn(email: string, password: string) {
  await callBetterAuth("/api/auth/sign-in/email", { email, password });
}

export async function signUp(input: SignUpInput) {
  await callBetterAuth("/api/auth/sign-up/email", { ...input, name: `${input.firstName} ${input.lastName}` });
}

export async function requestPasswordReset(email: string) {
  const body: PasswordResetRequest = { email, redirectTo: "/reset-password" };
  await dataOf(api.POST("/api/auth/request-password-reset", { body }));
}

export async function resetPassword(token: string, newPassword: string) {
  await callBetterAuth("/api/auth/reset-password", { token, newPassword });
}
