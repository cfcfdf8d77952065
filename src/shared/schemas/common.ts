import { z } from "zod";

export const messageSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageSchema>;

export const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lowercase slug");

/** A file answered as bytes (a PDF, a lesson's media): documented as OpenAPI's binary string. */
export const binaryFileSchema = z.custom<Buffer | Uint8Array>().meta({ type: "string", format: "binary" });

/** A text file (robots.txt, sitemap.xml, a CSV export). */
export const textFileSchema = z.string();

/** A bodiless POST: no body at all (no content type either), or `{}`. */
export const emptyBodySchema = z.strictObject({}).nullish();

/** The first thing wrong in a failed parse: zod reports at least one issue on every failure. */
export function firstIssue(error: z.ZodError): z.core.$ZodIssue {
  const [issue] = error.issues;
  if (!issue) throw new Error("A failed parse reported no issue.");
  return issue;
}

/** A share image's `?v=`: the content version or certificate state the page's tag names (decision 0067). */
export const shareImageQuerySchema = z.strictObject({ v: z.string().max(64).optional() });
