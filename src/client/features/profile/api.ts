import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import { refreshCurrentUser } from "#client/lib/session.ts";
import type { deleteAccountInputSchema } from "#shared/schemas/account.ts";
import type { profileInputSchema } from "#shared/schemas/certificates.ts";
import type { practitionerListingInputSchema } from "#shared/schemas/practitioners.ts";

/** Saves the learner's name; the signed-in user is read again. */
export const useUpdateProfile = () =>
  useMutation({
    mutationFn: (body: z.input<typeof profileInputSchema>) => dataOf(api.PUT("/api/profile", { body })),
    onSuccess: refreshCurrentUser,
  });

export const getOwnPractitionerListing = () => dataOf(api.GET("/api/profile/practitioner"));
export const useOwnPractitionerListing = () =>
  useQuery({ queryKey: queryKeys.practitioners.own(), queryFn: getOwnPractitionerListing });

/** Opts in to (or updates) the practitioner directory; the directory is read again. */
export function useSavePractitionerListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof practitionerListingInputSchema>) =>
      dataOf(api.PUT("/api/profile/practitioner", { body })),
    onSuccess: (data) => {
      queryClient.setQueryData(queryKeys.practitioners.own(), data);
      return queryClient.invalidateQueries({ queryKey: queryKeys.practitioners.all() });
    },
  });
}

/** Opts out: the listing is removed from the directory at once. */
export function useRemovePractitionerListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataOf(api.DELETE("/api/profile/practitioner")),
    onSuccess: (data) => {
      queryClient.setQueryData(queryKeys.practitioners.own(), data);
      return queryClient.invalidateQueries({ queryKey: queryKeys.practitioners.all() });
    },
  });
}

/** Deletes the account (password confirmed); the page then leaves for the home page. */
export const useDeleteAccount = () =>
  useMutation({
    mutationFn: (body: z.input<typeof deleteAccountInputSchema>) => dataOf(api.POST("/api/account/delete", { body })),
  });

/** The account's signed-in sessions, the current one marked (decision 0054). */
export const useSessions = () =>
  useQuery({ queryKey: queryKeys.sessions(), queryFn: () => dataOf(api.GET("/api/profile/sessions")) });

/** Signs out one session, or every one but this; the list is read again. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "others") =>
      id === "others"
        ? dataOf(api.POST("/api/profile/sessions/sign-out-others"))
        : dataOf(api.DELETE("/api/profile/sessions/{id}", { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
}

/** Whether the password signs in; passkey users may turn it off (decision 0054). */
export const usePasswordSignIn = () =>
  useQuery({
    queryKey: queryKeys.passwordSignIn(),
    queryFn: () => dataOf(api.GET("/api/profile/password-sign-in")),
  });

export function useSetPasswordSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => dataOf(api.PUT("/api/profile/password-sign-in", { body: { enabled } })),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.passwordSignIn(), data),
  });
}
