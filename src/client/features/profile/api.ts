import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "#client/lib/api-client.ts";
import { refreshCurrentUser } from "#client/lib/session.ts";
import type { profileInputSchema } from "#shared/schemas/certificates.ts";

/** Saves the learner's name; the signed-in user is read again. */
export const useUpdateProfile = () =>
  useMutation({
    mutationFn: (body: z.input<typeof profileInputSchema>) => api.put<unknown>("/api/profile", body),
    onSuccess: refreshCurrentUser,
  });
