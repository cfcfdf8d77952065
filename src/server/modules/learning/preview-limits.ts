import { conflict, tooManyAttempts } from "../../errors.ts";
import type { HitCounter } from "../../limits/hit-counter.ts";

/**
 * A visitor's preview quiz is graded once, within an hour of its start, and a visitor (client
 * address) starts at most this many an hour; counted in the shared hit counter, so every instance
 * agrees. Together with a result that never names an answer, a visitor cannot read the answer key
 * off repeated submissions (docs/decisions/0022).
 */
export const PREVIEW_STARTS_PER_HOUR = 10;
export const PREVIEW_ATTEMPT_TTL_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export async function takePreviewStart(counters: HitCounter, visitor: string): Promise<void> {
  const hits = await counters.count(`preview-start:${visitor}`, HOUR_MS);
  if (hits.count <= PREVIEW_STARTS_PER_HOUR) return;
  const opensAt = new Date(hits.windowEndsAt);
  throw tooManyAttempts(
    `You have started ${PREVIEW_STARTS_PER_HOUR} preview quizzes within an hour. The next one opens at ${opensAt.toUTCString()}; enrol to take the quiz for real.`,
    opensAt.toISOString(),
  );
}

/** Refuses a preview attempt that has expired or was graded before; otherwise records its one grading. */
export async function takePreviewGrading(
  counters: HitCounter,
  attempt: { startedAt: string; signature: string },
  now = Date.now(),
): Promise<void> {
  const started = Date.parse(attempt.startedAt);
  if (!(started <= now && now - started <= PREVIEW_ATTEMPT_TTL_MS))
    throw conflict("This preview attempt has expired. Start the quiz again.");
  const hits = await counters.count(`preview-graded:${attempt.signature}`, PREVIEW_ATTEMPT_TTL_MS);
  if (hits.count > 1) throw conflict("This preview attempt has already been submitted. Start the quiz again.");
}
