import type { Claim } from "#shared/schemas/site-content.ts";
import { unbackedReason } from "#shared/site-claims.ts";

type Backing = Pick<Claim, "qualifier" | "source" | "asOf" | "sample" | "period">;

/**
 * The qualifier, typical realised earnings (sample and period), source and as-of date of a claim or
 * figure, in one line of plain words. A count or earnings figure still without its backing says so:
 * production leaves it out (decision 0058), so only development and demos show that note.
 */
export function claimNote(claim: Backing, text?: string): string | null {
  const unbacked = text ? unbackedReason(text, claim) : null;
  const parts = [
    claim.qualifier,
    claim.sample && `typical realised earnings: ${claim.sample}${claim.period ? `, ${claim.period}` : ""}`,
    !claim.sample && claim.period && `period: ${claim.period}`,
    claim.source && `source: ${claim.source}`,
    claim.asOf && `as of ${claim.asOf}`,
    unbacked && `not shown in production: ${unbacked}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : null;
}

/** A marketing claim with its qualifier, source and date, which are never hidden from the claim they qualify. */
export function ClaimText({ claim, qualifierClass = "" }: { claim: Claim; qualifierClass?: string }) {
  const note = claimNote(claim, claim.text);
  return (
    <>
      {claim.text}
      {note && <span className={`block text-sm opacity-90 ${qualifierClass}`}>({note})</span>}
    </>
  );
}
