import { z } from "zod";

/** Item statistics for admins (docs/decisions/0026): how each quiz and exam item behaves in recorded attempts. */

/** Below this many responses an item shows "not enough data" instead of figures and flags. */
export const ITEM_MIN_RESPONSES = 30;
export const ITEM_FLAG_RULES = {
  /** Share correct above this: too easy. */
  tooEasy: 0.9,
  /** Share correct below this (a guess among 4 options is 0.25): too hard. */
  tooHard: 0.3,
  /** Point-biserial below this: discriminates badly. */
  lowDiscrimination: 0.2,
} as const;

export const itemFlagSchema = z.enum(["too-easy", "too-hard", "low-discrimination"]);

export const itemStatisticSchema = z.object({
  courseId: z.string(),
  /** A module id, or "exam" for the final exam. */
  assessment: z.string(),
  assessmentTitle: z.string(),
  questionId: z.string(),
  question: z.string(),
  responses: z.number().int(),
  /** Share of responses that were correct (0-1); null below the minimum. */
  difficulty: z.number().nullable(),
  /** Point-biserial correlation of the item with the attempt's score; null below the minimum or without variance. */
  discrimination: z.number().nullable(),
  options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean(), count: z.number().int() })),
  flags: z.array(itemFlagSchema),
  enoughData: z.boolean(),
});
export type ItemStatistic = z.infer<typeof itemStatisticSchema>;

export const itemStatisticsSchema = z.object({
  minResponses: z.number().int(),
  /** The course version these statistics are of (docs/decisions/0055): its banks, its attempts only. */
  version: z.number().int(),
  /** Every published version of the course, for the filter. */
  versions: z.array(z.number().int()),
  items: z.array(itemStatisticSchema),
});
export type ItemStatistics = z.infer<typeof itemStatisticsSchema>;

export const itemStatisticsQuerySchema = z.strictObject({
  courseId: z.string().min(1).max(100),
  /** A published version of the course; the latest when not given. */
  version: z.coerce.number().int().min(1).max(100_000).optional(),
});
