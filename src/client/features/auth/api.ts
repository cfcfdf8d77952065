import { api } from "#client/lib/api-client.ts";
import type { SignUpInput } from "#shared/schemas/auth.ts";

export async function signIn(email: string, password: string) {
  await api.post("/api/auth/sign-in/email", { email, password });
}

export async function signUp(input: SignUpInput) {
  await api.post("/api/auth/sign-up/email", { ...input, name: `${input.firstName} ${input.lastName}` });
}

export async function requestPasswordReset(email: string) {
  await api.post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
}

export async function resetPassword(token: string, newPassword: string) {
  await api.post("/api/auth/reset-password", { token, newPassword });
}
