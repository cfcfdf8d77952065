import { type Kysely, sql } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type {
  OwnPractitionerListing,
  PractitionerCard,
  PractitionerDirectory,
  PractitionerListingInput,
} from "#shared/schemas/practitioners.ts";
import { requireLiveAccount } from "../../db/account-lock.ts";
import type { DB } from "../../db/schema.ts";
import { conflict } from "../../errors.ts";
import { countsNow } from "../certificates/certificate-lifecycle.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

const DIRECTORY_LIMIT = 200;
export const NOT_ELIGIBLE =
  "Only holders of a valid (not expired or revoked) certificate can be listed in the directory.";

/** Letters that do not decompose into a base letter and an accent. */
const FOLDED: Record<string, string> = { ø: "o", æ: "ae", œ: "oe", ß: "ss", ł: "l", đ: "d", ı: "i" };

/** Lower case without accents, so "Zürich" is found by "zurich" and "Tromsø" by "tromso". */
export const regionKey = (region: string) =>
  region
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[øæœßłđı]/g, (c) => FOLDED[c] ?? c)
    .trim();

/** Certificates that count for the directory: not revoked and not expired. */
const validCertificates = (db: Kysely<DB>, now: string) => db.selectFrom("certificate").where(countsNow(new Date(now)));

async function hasValidCertificate(db: Kysely<DB>, userId: string) {
  const row = await validCertificates(db, new Date().toISOString())
    .select("id")
    .where("userId", "=", userId)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function getOwnListing(db: Kysely<DB>, user: CurrentUser): Promise<OwnPractitionerListing> {
  const [eligible, listing] = await Promise.all([
    hasValidCertificate(db, user.id),
    db
      .selectFrom("practitionerListing")
      .select(["displayName", "region", "bio", "contactUrl"])
      .where("userId", "=", user.id)
      .executeTakeFirst(),
  ]);
  return { eligible, listing: listing ?? null };
}

/** Opts in, or updates the listing; only a holder of a valid certificate may. */
export async function saveOwnListing(
  db: Kysely<DB>,
  user: CurrentUser,
  input: PractitionerListingInput,
): Promise<OwnPractitionerListing> {
  if (!(await hasValidCertificate(db, user.id))) throw conflict(NOT_ELIGIBLE);
  const now = new Date().toISOString();
  const values = { ...input, regionKey: regionKey(input.region), updatedAt: now };
  await db.transaction().execute(async (trx) => {
    // No listing for an account erased since its session was read (decision 0051).
    await requireLiveAccount(trx, user.id);
    await trx
      .insertInto("practitionerListing")
      .values({ userId: user.id, createdAt: now, ...values })
      .onConflict((oc) => oc.column("userId").doUpdateSet(values))
      .execute();
  });
  return getOwnListing(db, user);
}

/** Opts out: the listing is deleted, so it is gone from the directory at once. */
export async function removeOwnListing(db: Kysely<DB>, user: CurrentUser): Promise<OwnPractitionerListing> {
  await db.deleteFrom("practitionerListing").where("userId", "=", user.id).execute();
  return getOwnListing(db, user);
}

/**
 * The public directory: listings whose holder has at least one valid certificate (of the course
 * searched for, when given), each with those certificates. Revoked or expired ones drop out.
 */
export async function searchDirectory(
  db: Kysely<DB>,
  catalogue: Catalogue,
  search: { course?: string; region?: string },
): Promise<PractitionerDirectory> {
  const region = search.region ? regionKey(search.region) : "";
  const pattern = `%${region.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom("practitionerListing as l")
    .innerJoin(
      validCertificates(db, now).select(["certificateId", "courseId", "userId", "completedAt"]).as("c"),
      "c.userId",
      "l.userId",
    )
    .select(["l.userId", "l.displayName", "l.region", "l.bio", "l.contactUrl", "c.certificateId", "c.courseId"])
    .$if(!!region, (q) => q.where(sql<boolean>`${sql.ref("l.regionKey")} like ${pattern} escape '\\'`))
    .$if(!!search.course, (q) =>
      q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom("certificate")
            .select("certificate.id")
            .whereRef("certificate.userId", "=", "l.userId")
            .where("certificate.courseId", "=", search.course as string)
            .where(countsNow(new Date(now))),
        ),
      ),
    )
    .orderBy("l.displayName")
    .orderBy("l.userId")
    .orderBy("c.completedAt")
    .limit(DIRECTORY_LIMIT * 10)
    .execute();
  const cards = new Map<string, PractitionerCard>();
  for (const r of rows) {
    let card = cards.get(r.userId);
    if (!card) {
      if (cards.size >= DIRECTORY_LIMIT) break;
      card = { displayName: r.displayName, region: r.region, bio: r.bio, contactUrl: r.contactUrl, certificates: [] };
      cards.set(r.userId, card);
    }
    card.certificates.push({
      certificateId: r.certificateId,
      courseId: r.courseId,
      courseTitle: catalogue.byId.get(r.courseId)?.card.title ?? r.courseId,
    });
  }
  return { practitioners: [...cards.values()] };
}
