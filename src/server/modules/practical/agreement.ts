import { median } from "#shared/median.ts";
import type { AgreementReport } from "#shared/schemas/practical.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";
import { listCourseMarks, type StoredMark } from "./practical.repository.ts";
import type { PracticalDeps } from "./practical.service.ts";

/**
 * Agreement between blind double marks (docs/decisions/0053): per practical and assessor, for each
 * criterion the share of pairs at exactly the same level and Cohen's kappa with quadratic weights over
 * the criterion's levels; with marks given, share passed, median time from claim to mark and the sample.
 */

/** Exact agreement: the share of pairs at the same level; null without pairs. */
export function exactAgreement(pairs: readonly (readonly [number, number])[]): number | null {
  if (pairs.length === 0) return null;
  return pairs.filter(([a, b]) => a === b).length / pairs.length;
}

/**
 * Quadratic-weighted Cohen's kappa of pairs of level indices 0..k-1: 1 - sum(w*observed) / sum(w*expected)
 * with w = (i-j)^2/(k-1)^2 and expected from the two raters' marginals. Null when undefined: no pairs,
 * fewer than two levels, or no disagreement expected by chance (both raters used a single level).
 */
export function weightedKappa(pairs: readonly (readonly [number, number])[], levels: number): number | null {
  const n = pairs.length;
  if (n === 0 || levels < 2) return null;
  const rowTotals = new Array<number>(levels).fill(0);
  const colTotals = new Array<number>(levels).fill(0);
  let observed = 0;
  for (const [a, b] of pairs) {
    rowTotals[a] = (rowTotals[a] ?? 0) + 1;
    colTotals[b] = (colTotals[b] ?? 0) + 1;
    observed += ((a - b) / (levels - 1)) ** 2;
  }
  let expected = 0;
  for (let i = 0; i < levels; i++)
    for (let j = 0; j < levels; j++)
      expected += (((rowTotals[i] ?? 0) * (colTotals[j] ?? 0)) / n) * ((i - j) / (levels - 1)) ** 2;
  if (expected === 0) return null;
  return 1 - observed / expected;
}

const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** The agreement report over every practical's marks. */
export async function agreementReport(deps: PracticalDeps, catalogue: Catalogue): Promise<AgreementReport> {
  const rows: AgreementReport["rows"] = [];
  for (const course of catalogue.courses) {
    const practical = course.practical;
    if (!practical) continue;
    const marks = await listCourseMarks(deps.db, course.card.id);
    if (marks.length === 0) continue;
    const bySubmission = new Map<number, StoredMark[]>();
    for (const m of marks) bySubmission.set(m.submissionId, [...(bySubmission.get(m.submissionId) ?? []), m]);
    const assessorIds = [...new Set(marks.map((m) => m.assessorId))];
    const emails = new Map(
      (await deps.db.selectFrom("user").select(["id", "email"]).where("id", "in", assessorIds).execute()).map((u) => [
        u.id,
        u.email,
      ]),
    );
    for (const assessorId of assessorIds) {
      const own = marks.filter((m) => m.assessorId === assessorId);
      // The blind pair: rounds 1 and 2 of a submission, one of them this assessor's.
      const pairs: [StoredMark, StoredMark][] = [];
      for (const m of own) {
        if (m.round > 2) continue;
        const other = bySubmission.get(m.submissionId)?.find((x) => x.round === (m.round === 1 ? 2 : 1));
        if (other) pairs.push([m, other]);
      }
      rows.push({
        courseId: course.card.id,
        courseTitle: course.card.title,
        assessorId,
        assessorEmail: emails.get(assessorId) ?? "(erased account)",
        marks: own.length,
        sharePassed: round3(own.filter((m) => m.decision === "pass").length / own.length),
        medianReviewHours: round3(
          median(own.map((m) => (new Date(m.markedAt).getTime() - new Date(m.claimedAt).getTime()) / 3_600_000)),
        ),
        pairs: pairs.length,
        decisionAgreement: round3(
          pairs.length ? pairs.filter(([a, b]) => a.decision === b.decision).length / pairs.length : null,
        ),
        criteria: practical.criteria.map((criterion) => {
          const levels = criterion.levels.map((l) => l.points);
          const indexPairs = pairs.flatMap(([a, b]) => {
            const i = levels.indexOf(a.scores.find((s) => s.criterionId === criterion.id)?.points ?? -1);
            const j = levels.indexOf(b.scores.find((s) => s.criterionId === criterion.id)?.points ?? -1);
            return i >= 0 && j >= 0 ? [[i, j] as const] : [];
          });
          return {
            criterionId: criterion.id,
            title: criterion.title,
            pairs: indexPairs.length,
            exactAgreement: round3(exactAgreement(indexPairs)),
            weightedKappa: round3(weightedKappa(indexPairs, levels.length)),
          };
        }),
      });
    }
  }
  return { doubleMarkShare: deps.config.practical.doubleMarkShare, rows };
}
