import type { Level } from "#shared/schemas/courses.ts";

/** Level colours (spec): beginner blue, intermediate green, advanced red, bonus yellow. */
const levelClasses: Record<Level, string> = {
  Beginner: "bg-level-beginner-bg text-level-beginner",
  Intermediate: "bg-level-intermediate-bg text-level-intermediate",
  Advanced: "bg-level-advanced-bg text-level-advanced",
  Bonus: "bg-level-bonus-bg text-level-bonus",
};

/**
 * The one way a course level is shown: a compact pill. `w-fit` keeps it as wide as its word inside
 * column layouts, which would otherwise stretch it across the card.
 */
export function LevelBadge({ level }: { level: Level }) {
  return (
    <span
      data-level-badge=""
      className={`inline-flex w-fit shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs leading-5 font-semibold whitespace-nowrap ${levelClasses[level]}`}
    >
      {level}
    </span>
  );
}
