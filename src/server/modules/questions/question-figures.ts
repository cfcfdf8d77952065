import type { Kysely } from "kysely";
import { median } from "#shared/median.ts";
import type { QuestionFigures } from "#shared/schemas/analytics.ts";
import { QUESTION_WAIT_HOURS } from "#shared/schemas/analytics.ts";
import type { DB } from "../../db/schema.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

const WAIT_MS = QUESTION_WAIT_HOURS * 3_600_000;

/**
 * The owner's question figures per course (decision 0056): questions asked in the period (hidden ones
 * left out), the median time from asking to the first staff answer, and of the questions at least 48
 * hours old, the share whose first staff answer came later than 48 hours after asking, or never.
 */
export async function questionFigures(
  db: Kysely<DB>,
  catalogue: Catalogue,
  range: { from: string; to: string },
  now = new Date(),
): Promise<QuestionFigures["items"]> {
  const rows = await db
    .selectFrom("post as q")
    .select((eb) => [
      "q.courseId",
      "q.createdAt",
      eb
        .selectFrom("post as s")
        .select((s) => s.fn.min("s.createdAt").as("at"))
        .whereRef("s.questionId", "=", "q.id")
        .where("s.kind", "=", "answer")
        .where("s.state", "!=", "hidden")
        .where("s.badge", "is not", null)
        .as("firstStaffAt"),
    ])
    .where("q.kind", "=", "question")
    .where("q.state", "!=", "hidden")
    .where("q.createdAt", ">=", range.from)
    .where("q.createdAt", "<", range.to)
    .execute();
  const byCourse = new Map<string, { asked: number; waits: number[]; old: number; late: number }>();
  for (const row of rows) {
    const figures = byCourse.get(row.courseId) ?? { asked: 0, waits: [], old: 0, late: 0 };
    byCourse.set(row.courseId, figures);
    figures.asked += 1;
    const asked = Date.parse(row.createdAt);
    const answered = row.firstStaffAt ? Date.parse(String(row.firstStaffAt)) : null;
    if (answered !== null) figures.waits.push((answered - asked) / 1000);
    if (now.getTime() - asked < WAIT_MS) continue;
    figures.old += 1;
    if (answered === null || answered - asked > WAIT_MS) figures.late += 1;
  }
  return [...byCourse].flatMap(([courseId, f]) => {
    const course = catalogue.byId.get(courseId);
    if (!course) return [];
    const wait = median(f.waits);
    return [
      {
        courseId,
        title: course.card.title,
        asked: f.asked,
        answeredByStaff: f.waits.length,
        medianSecondsToFirstStaffAnswer: wait === null ? null : Math.round(wait),
        atLeast48HoursOld: f.old,
        unansweredAfter48Hours: f.late,
        shareUnansweredAfter48Hours: f.old === 0 ? null : f.late / f.old,
      },
    ];
  });
}
