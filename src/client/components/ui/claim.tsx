import type { Claim } from "#shared/schemas/site-content.ts";

/** The qualifier, source and as-of date of a claim or figure, in one line of plain words. */
export function claimNote(claim: Pick<Claim, "qualifier" | "source" | "asOf">): string | null {
  const parts = [
    claim.qualifier,
    claim.source && `source: ${claim.source}`,
    claim.asOf && `as of ${claim.asOf}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : null;
}

/** A marketing claim with its qualifier, source and date, which are never hidden from the claim they qualify. */
export function ClaimText({ claim, qualifierClass = "" }: { claim: Claim; qualifierClass?: string }) {
  const note = claimNote(claim);
  return (
    <>
      {claim.text}
      {note && <span className={`block text-sm opacity-90 ${qualifierClass}`}>({note})</span>}
    </>
  );
}
