import { z } from "zod";

export const deleteAccountInputSchema = z.strictObject({
  password: z.string().min(1, "Enter your password to delete your account.").max(200),
});
export const deleteAccountResponseSchema = z.object({ message: z.string() });

/** Everything the academy holds about the account, as one JSON document (a download). */
export const accountExportSchema = z.record(z.string(), z.unknown());
