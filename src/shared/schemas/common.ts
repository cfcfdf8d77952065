import { z } from "zod";

export const messageSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageSchema>;

export const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lowercase slug");

/** A bodiless POST: no body at all (no content type either), or `{}`. */
export const emptyBodySchema = z.strictObject({}).nullish();
