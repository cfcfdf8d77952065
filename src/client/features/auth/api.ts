import { useMutation } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { authCall, authClient } from "#client/lib/auth-client.ts";
import { authPost, cleanCode } from "#client/lib/second-factor.ts";
import type { PasswordResetInput, PasswordResetRequest, SignInInput, SignUpInput } from "#shared/schemas/auth.ts";

/**
 * Signs in. The page reads the user again itself (`refreshCurrentUser`) once it has said so: the
 * signed-in user is sent on from /login at once, which unmounts the page.
 */
export const useSignIn = () =>
  useMutation({
    mutationFn: async (input: SignInInput): Promise<{ codeNeeded: boolean }> => {
      const answer = await authClient.signIn.email(input);
      await authCall(Promise.resolve(answer));
      // Two-factor on: the password was right, a code or backup code comes next (decision 0054).
      const data: unknown = answer.data;
      return { codeNeeded: typeof data === "object" && data !== null && "twoFactorRedirect" in data };
    },
  });

/** The second step of a two-factor sign-in: a code from the app, or a backup code. */
export const useSecondFactor = () =>
  useMutation({
    mutationFn: ({ code, backup, trustDevice }: { code: string; backup: boolean; trustDevice: boolean }) =>
      authPost(backup ? "two-factor/verify-backup-code" : "two-factor/verify-totp", {
        code: cleanCode(code),
        ...(backup ? {} : { trustDevice }),
      }),
  });

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
