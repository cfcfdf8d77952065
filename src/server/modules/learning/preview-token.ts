import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { DrawnQuestion } from "./draw.ts";

/** A preview attempt is not stored: its draw travels as the attempt id, signed so it cannot be altered. */
const payloadSchema = z.object({
  c: z.string(),
  a: z.string(),
  t: z.string(),
  q: z.array(z.object({ id: z.string(), options: z.array(z.string()) })),
});

const sign = (secret: string, body: string) =>
  createHmac("sha256", `${secret}:preview-attempt`).update(body).digest("base64url");

export function previewAttemptId(
  secret: string,
  courseId: string,
  assessmentId: string,
  startedAt: string,
  questions: DrawnQuestion[],
) {
  const body = Buffer.from(JSON.stringify({ c: courseId, a: assessmentId, t: startedAt, q: questions })).toString(
    "base64url",
  );
  return `p.${body}.${sign(secret, body)}`;
}

export interface PreviewAttempt {
  questions: DrawnQuestion[];
  startedAt: string;
  /** The signature: unique per attempt, the key under which its one grading is recorded. */
  signature: string;
}

/** The draw behind a preview attempt id, or null when the id is not one we signed for this quiz. */
export function readPreviewAttemptId(
  secret: string,
  attemptId: string,
  courseId: string,
  assessmentId: string,
): PreviewAttempt | null {
  const [prefix, body, signature] = attemptId.split(".");
  if (prefix !== "p" || !body || !signature) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const payload = payloadSchema.parse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    return payload.c === courseId && payload.a === assessmentId
      ? { questions: payload.q, startedAt: payload.t, signature }
      : null;
  } catch {
    return null;
  }
}
