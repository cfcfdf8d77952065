import type { Kysely } from "kysely";
import {
  ITEM_FLAG_RULES,
  ITEM_MIN_RESPONSES,
  type ItemStatistic,
  type ItemStatistics,
} from "#shared/schemas/item-statistics.ts";
import { courseOptionSums, type OptionSums } from "../../db/item-response-tally.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { type CatalogueCourse, type CourseCatalogue, FINAL_EXAM_ID, type QuestionBank } from "./course-catalogue.ts";

/** The banks of a course, keyed as attempts store them: module id, or FINAL_EXAM_ID for the exam. */
function banksOf(course: CatalogueCourse): { id: string; assessment: string; bank: QuestionBank }[] {
  return [
    ...course.modules.filter((m) => m.quiz).map((m) => ({ id: m.id, assessment: m.id, bank: m.quiz! })),
    ...(course.exam ? [{ id: FINAL_EXAM_ID, assessment: "exam", bank: course.exam }] : []),
  ];
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Difficulty and point-biserial from sums: p = n1/n; r = (M1 - M0) / s * sqrt(p(1 - p)), with M1 and M0
 * the mean attempt scores of those who chose the key and those who did not, s the standard deviation
 * of the attempt scores (population) among everyone who answered. The item's own point is in the score.
 */
export function itemFigures(n: number, n1: number, sum: number, sumSquares: number, sum1: number) {
  const p = n1 / n;
  const mean = sum / n;
  const variance = sumSquares / n - mean * mean;
  if (n1 === 0 || n1 === n || variance <= 1e-9) return { difficulty: p, discrimination: null };
  const m1 = sum1 / n1;
  const m0 = (sum - sum1) / (n - n1);
  return { difficulty: p, discrimination: ((m1 - m0) / Math.sqrt(variance)) * Math.sqrt(p * (1 - p)) };
}

/**
 * Statistics of each item of one version of a course (decision 0055): that version's banks, and only
 * the attempts made on it, so an edited bank's figures start afresh with its version.
 */
export async function itemStatistics(
  db: Kysely<DB>,
  course: CatalogueCourse | undefined,
  versions: number[] = [],
): Promise<ItemStatistics> {
  if (!course) throw notFound("Course or version not found.");
  // Per item and option: responses, and the sum and sum of squares of their attempts' scores, over
  // every stored attempt on this version (the rollup's tally plus the attempts it has not reached yet).
  const rows = await courseOptionSums(db, course.card.id, course.version);
  const byItem = new Map<string, OptionSums[]>();
  for (const row of rows) {
    const key = `${row.assessmentId}\u0000${row.questionId}`;
    byItem.set(key, [...(byItem.get(key) ?? []), row]);
  }
  const items: ItemStatistic[] = [];
  for (const { id, assessment, bank } of banksOf(course)) {
    for (const q of bank.questions) {
      const groups = byItem.get(`${id}\u0000${q.id}`) ?? [];
      const count = (optionId: string) => Number(groups.find((g) => g.optionId === optionId)?.n ?? 0);
      const n = groups.reduce((s, g) => s + Number(g.n), 0);
      const sum = groups.reduce((s, g) => s + Number(g.sumScore), 0);
      const sumSquares = groups.reduce((s, g) => s + Number(g.sumSquares), 0);
      const key = groups.find((g) => g.optionId === q.correctAnswer);
      const enoughData = n >= ITEM_MIN_RESPONSES;
      const figures = enoughData
        ? itemFigures(n, count(q.correctAnswer), sum, sumSquares, Number(key?.sumScore ?? 0))
        : null;
      const flags: ItemStatistic["flags"] = [];
      if (figures) {
        if (figures.difficulty > ITEM_FLAG_RULES.tooEasy) flags.push("too-easy");
        if (figures.difficulty < ITEM_FLAG_RULES.tooHard) flags.push("too-hard");
        if (figures.discrimination !== null && figures.discrimination < ITEM_FLAG_RULES.lowDiscrimination)
          flags.push("low-discrimination");
      }
      items.push({
        courseId: course.card.id,
        assessment,
        assessmentTitle:
          assessment === "exam" ? bank.title : `${course.modulesById.get(id)?.title ?? id}: ${bank.title}`,
        questionId: q.id,
        question: q.question,
        responses: n,
        difficulty: figures ? round(figures.difficulty) : null,
        discrimination: figures?.discrimination != null ? round(figures.discrimination) : null,
        options: q.options.map((o) => ({
          id: o.id,
          text: o.text,
          correct: o.id === q.correctAnswer,
          count: count(o.id),
        })),
        flags,
        enoughData,
      });
    }
  }
  return { minResponses: ITEM_MIN_RESPONSES, version: course.version, versions, items };
}

/**
 * Statistics of the version asked for (the latest when none is), with every published version of the
 * course: admin analytics and the studio's bank editor (decision 0061) read the same figures.
 */
export async function courseItemStatistics(
  db: Kysely<DB>,
  catalogue: CourseCatalogue,
  query: { courseId: string; version?: number | undefined },
): Promise<ItemStatistics> {
  const current = await catalogue.get();
  const versions = (current.versions.get(query.courseId) ?? []).map((v) => v.version);
  const course =
    query.version === undefined
      ? current.byId.get(query.courseId)
      : await catalogue.version(query.courseId, query.version);
  return itemStatistics(db, course, versions);
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // Quote everything that needs it; a leading formula character is neutralised for spreadsheets.
  const safe = typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function itemStatisticsCsv(stats: ItemStatistics): string {
  const header = [
    "course",
    "assessment",
    "question_id",
    "question",
    "responses",
    "difficulty",
    "discrimination",
    "flags",
    "option_a",
    "option_b",
    "option_c",
    "option_d",
    "key",
  ];
  const lines = stats.items.map((i) =>
    [
      i.courseId,
      i.assessment,
      i.questionId,
      i.question,
      i.responses,
      i.enoughData ? i.difficulty : "not enough data",
      i.enoughData ? i.discrimination : "not enough data",
      i.flags.join(" "),
      ...["a", "b", "c", "d"].map((id) => i.options.find((o) => o.id === id)?.count ?? 0),
      i.options.find((o) => o.correct)?.id ?? "",
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[header.join(","), ...lines].join("\r\n")}\r\n`;
}
