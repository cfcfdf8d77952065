import type { Claim } from "#shared/schemas/site-content.ts";

/** A marketing claim with its qualifier, which is never hidden from the claim it qualifies. */
export function ClaimText({ claim, qualifierClass = "" }: { claim: Claim; qualifierClass?: string }) {
  return (
    <>
      {claim.text}
      {claim.qualifier && <span className={`block text-sm opacity-90 ${qualifierClass}`}>({claim.qualifier})</span>}
    </>
  );
}
