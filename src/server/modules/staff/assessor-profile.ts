import type { Kysely, Transaction } from "kysely";
import type { AssessorProfile, AssessorProfileInput } from "#shared/schemas/practical.ts";
import type { DB } from "../../db/schema.ts";

/**
 * An assessor's qualifications (docs/decisions/0053): credential, awarding body and number, and the
 * coaching training a practical that scores a live conversation needs. Owned here (layer 0) so the
 * admin module can check them when it assigns an assessor to a course.
 */

type Db = Kysely<DB> | Transaction<DB>;

export async function findAssessorProfile(db: Db, userId: string): Promise<AssessorProfile | null> {
  const row = await db
    .selectFrom("assessorProfile")
    .select(["credential", "awardingBody", "credentialNumber", "coachingTraining", "updatedAt"])
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Writes the profile (one per account); its caller checks the account lock and audits. */
export async function upsertAssessorProfile(trx: Db, userId: string, input: AssessorProfileInput, now: string) {
  const values = {
    credential: input.credential,
    awardingBody: input.awardingBody,
    credentialNumber: input.credentialNumber,
    coachingTraining: input.coachingTraining?.trim() || null,
    updatedAt: now,
  };
  await trx
    .insertInto("assessorProfile")
    .values({ userId, ...values })
    .onConflict((oc) => oc.column("userId").doUpdateSet(values))
    .execute();
}

/**
 * Why an assessor may not take a course's practical, or null: no qualifications recorded, or a
 * practical that scores a live conversation (evidence 'recording') and no coaching training.
 */
export function qualificationProblem(
  profile: AssessorProfile | null,
  practical: { evidence: "written" | "recording"; assessorRequirements: string } | null,
): string | null {
  if (!profile) return "This assessor has not recorded their qualifications yet.";
  if (practical?.evidence === "recording" && !profile.coachingTraining)
    return "This practical scores a coaching conversation: the assessor must record their coaching training first.";
  return null;
}
