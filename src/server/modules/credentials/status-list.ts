import { randomInt } from "node:crypto";
import * as statusList from "@digitalbazaar/vc-bitstring-status-list";
import type { Kysely } from "kysely";
import type { Config } from "../../config.ts";
import type { DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";

/** 131,072 bits (16 KB) per list, the specification's minimum for herd privacy. */
export const STATUS_LIST_LENGTH = 131_072;
/** A list takes new entries until half full, so random slots are found in a try or two. */
const ENTRIES_PER_LIST = STATUS_LIST_LENGTH / 2;

export const statusListUrl = (config: Pick<Config, "appUrl">, listId: number) =>
  `${config.appUrl}/credentials/status/${listId}`;

export interface StatusEntry {
  listId: number;
  statusIndex: number;
}

/**
 * The certificate's slot in a revocation list, allocated once at a random index. Parallel
 * callers settle on one row through the primary key; a taken slot is retried elsewhere.
 */
export async function allocateStatusEntry(db: Kysely<DB>, certificateId: string): Promise<StatusEntry> {
  const existing = () =>
    db
      .selectFrom("credentialStatus")
      .select(["listId", "statusIndex"])
      .where("certificateId", "=", certificateId)
      .executeTakeFirst();
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = await existing();
    if (found) return found;
    const { count } = await db
      .selectFrom("credentialStatus")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const listId = Math.floor(Number(count) / ENTRIES_PER_LIST) + 1;
    await db
      .insertInto("credentialStatus")
      .values({
        certificateId,
        listId,
        statusIndex: randomInt(STATUS_LIST_LENGTH),
        credential: null,
        createdAt: new Date().toISOString(),
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  throw new Error("Could not allocate a revocation list entry");
}

export function statusEntryJson(config: Pick<Config, "appUrl">, entry: StatusEntry) {
  const list = statusListUrl(config, entry.listId);
  return {
    id: `${list}#${entry.statusIndex}`,
    type: "BitstringStatusListEntry",
    statusPurpose: "revocation",
    statusListIndex: String(entry.statusIndex),
    statusListCredential: list,
  };
}

/** The unsigned list: a set bit for every revoked certificate in it, read in one query. */
export async function buildStatusListCredential(db: Kysely<DB>, config: Pick<Config, "appUrl">, listId: number) {
  const [listed, revoked] = await Promise.all([
    db.selectFrom("credentialStatus").select("listId").where("listId", "=", listId).limit(1).executeTakeFirst(),
    db
      .selectFrom("credentialStatus")
      .innerJoin("certificate", "certificate.certificateId", "credentialStatus.certificateId")
      .select("credentialStatus.statusIndex")
      .where("credentialStatus.listId", "=", listId)
      .where("certificate.revokedAt", "is not", null)
      .execute(),
  ]);
  if (!listed) throw notFound("No status list has this ID.");
  const list = await statusList.createList({ length: STATUS_LIST_LENGTH });
  for (const r of revoked) list.setStatus(r.statusIndex, true);
  return statusList.createCredential({ id: statusListUrl(config, listId), list, statusPurpose: "revocation" });
}
