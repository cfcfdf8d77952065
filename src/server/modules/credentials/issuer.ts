import { randomBytes } from "node:crypto";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import type { Kysely, Transaction } from "kysely";
import type { Config } from "../../config.ts";
import type { DB, IssuerKeyTable } from "../../db/schema.ts";
import { DID_V1_CONTEXT, MULTIKEY_CONTEXT } from "./json-ld-contexts.ts";

const ACTIVE = "active";

/** did:web names the host; a port's colon must be percent-encoded. */
export function issuerDid(config: Pick<Config, "appUrl">): string {
  return `did:web:${new URL(config.appUrl).host.replace(":", "%3A")}`;
}

export type IssuerKey = Pick<IssuerKeyTable, "id" | "publicKeyMultibase" | "secretKeyMultibase" | "activeSlot">;

async function generateKeyRow() {
  const key = await Ed25519Multikey.generate();
  const exported = await key.export({ publicKey: true, secretKey: true });
  return {
    id: `key-${randomBytes(6).toString("base64url")}`,
    publicKeyMultibase: String(exported.publicKeyMultibase),
    secretKeyMultibase: String(exported.secretKeyMultibase),
    activeSlot: ACTIVE,
    createdAt: new Date().toISOString(),
  };
}

/** Every key the issuer has used, the signing one first. Creates the first key once, whichever instance gets there. */
export async function issuerKeys(db: Kysely<DB>): Promise<IssuerKey[]> {
  const read = () =>
    db
      .selectFrom("issuerKey")
      .select(["id", "publicKeyMultibase", "secretKeyMultibase", "activeSlot"])
      .orderBy("createdAt", "desc")
      .execute();
  let keys = await read();
  if (!keys.some((k) => k.activeSlot === ACTIVE)) {
    await db
      .insertInto("issuerKey")
      .values(await generateKeyRow())
      .onConflict((oc) => oc.doNothing())
      .execute();
    keys = await read();
  }
  return keys.sort((a, b) => Number(b.activeSlot === ACTIVE) - Number(a.activeSlot === ACTIVE));
}

/** Starts signing with a new key; the old public keys stay in the DID document. */
export async function rotateIssuerKey(db: Kysely<DB>): Promise<string> {
  const row = await generateKeyRow();
  await db.transaction().execute(async (trx: Transaction<DB>) => {
    await trx.updateTable("issuerKey").set({ activeSlot: null }).where("activeSlot", "=", ACTIVE).execute();
    await trx.insertInto("issuerKey").values(row).execute();
  });
  return row.id;
}

export function verificationMethod(did: string, key: IssuerKey) {
  return {
    "@context": MULTIKEY_CONTEXT,
    id: `${did}#${key.id}`,
    type: "Multikey",
    controller: did,
    publicKeyMultibase: key.publicKeyMultibase,
  };
}

export function didDocument(did: string, keys: IssuerKey[]) {
  const methods = keys.map((k) => {
    const { "@context": _, ...method } = verificationMethod(did, k);
    return method;
  });
  return {
    "@context": [DID_V1_CONTEXT, MULTIKEY_CONTEXT],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}

export async function signerFor(did: string, key: IssuerKey) {
  const pair = await Ed25519Multikey.from({
    "@context": MULTIKEY_CONTEXT,
    type: "Multikey",
    id: `${did}#${key.id}`,
    controller: did,
    publicKeyMultibase: key.publicKeyMultibase,
    secretKeyMultibase: key.secretKeyMultibase,
  });
  return pair.signer();
}
