import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { authCall, authClient } from "#client/lib/auth-client.ts";
import type { PasswordResetInput, PasswordResetRequest, SignInInput, SignUpInput } from "#shared/schemas/auth.ts";

/**
 * Signs in. The page reads the user again itself (`refreshCurrentUser`) once it has said so: the
 * signed-in user is sent on from /login at once, which unmounts the page.
 */
export const useSignIn = () =>
  useMutation({ mutationFn: (input: SignInInput) => authCall(authClient.signIn.email(input)) });

/**
 * Creates the account, which is signed in at once. The user is read again only when the page
 * leaves for the dashboard: a signed-in visitor of /login is sent on at once (spec's 2000 ms pause).
 */
export const useSignUp = () =>
  useMutation({
    mutationFn: (input: SignUpInput) =>
      authCall(authClient.signUp.email({ ...input, name: `${input.firstName} ${input.lastName}` })),
  });

/** Asks for a reset link (our own route: the same answer for every address). */
export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (email: string) => {
      const body: PasswordResetRequest = { email, redirectTo: "/reset-password" };
      return dataOf(api.POST("/api/auth/request-password-reset", { body }));
    },
  });

export const useResetPassword = () =>
  useMutation({ mutationFn: (input: PasswordResetInput) => authCall(authClient.resetPassword(input)) });
