import { z } from "zod";
import { defineJob } from "../jobs/one-off-jobs.ts";
import type { FileStorage } from "./file-storage.ts";

/**
 * Stored files whose rows are gone (an erased account's practical work, an upload refused half-way),
 * removed after the change that dropped them commits, and again until storage lets them go.
 */
export const removeStoredFiles = defineJob({
  name: "remove-stored-files",
  payload: z.object({ keys: z.array(z.string().min(1).max(500)).min(1).max(1000) }),
});

export function removeStoredFilesWith(storage: FileStorage) {
  return async ({ keys }: { keys: string[] }) => {
    // Removing a key already gone succeeds, so a repeat after a partial failure is harmless.
    const results = await Promise.allSettled(keys.map((key) => storage.remove(key)));
    const failed = keys.filter((_, i) => results[i]?.status === "rejected");
    if (failed.length > 0)
      throw new Error(`${failed.length} of ${keys.length} stored files not removed yet: ${failed.join(", ")}`);
  };
}
