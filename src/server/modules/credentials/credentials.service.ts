import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import * as statusList from "@digitalbazaar/vc-bitstring-status-list";
import type { Kysely, Selectable } from "kysely";
import type { CurrentUser } from "#shared/schemas/auth.ts";
import type { CredentialCheck } from "#shared/schemas/credentials.ts";
import type { Config } from "../../config.ts";
import type { CertificateTable, DB } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import {
  creditsOf,
  earnedOn,
  getOwnCertificateById,
  holderNameOf,
  versionLine,
} from "../certificates/certificates.service.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { didDocument, issuerDid, issuerKeys, signerFor, verificationMethod } from "./issuer.ts";
import { localContext, type RemoteDocument } from "./json-ld-contexts.ts";
import { openBadgeCredential } from "./open-badge.ts";
import { allocateStatusEntry, buildStatusListCredential, statusEntryJson } from "./status-list.ts";

type Json = Record<string, unknown>;
type CertificateRow = Pick<
  Selectable<CertificateTable>,
  | "id"
  | "certificateId"
  | "userId"
  | "courseId"
  | "courseVersion"
  | "firstName"
  | "lastName"
  | "nameOrder"
  | "completedAt"
  | "expiresAt"
  | "ceHours"
  | "credentialUuid"
  | "validFrom"
>;

/** The current credential's id: a renewal or extension gives the certificate a new one. */
export const credentialIdOf = (row: Pick<CertificateRow, "id" | "credentialUuid">) =>
  `urn:uuid:${row.credentialUuid ?? row.id}`;

/** Whether a stored credential still says what the certificate says (id, name, dates, approved hours). */
function isCurrent(stored: Json, row: CertificateRow, ceHours: number | null): boolean {
  // A credential signed before it named the course version is signed again with it.
  const subject = stored.credentialSubject as Json | undefined;
  const achievement = subject?.achievement as Json | undefined;
  return (
    stored.id === credentialIdOf(row) &&
    subject?.name === holderNameOf(row) &&
    String(stored.validUntil).slice(0, 19) === row.expiresAt.slice(0, 19) &&
    (achievement?.creditsAvailable ?? null) === ceHours &&
    achievement?.version === String(row.courseVersion)
  );
}

const NO_CREDENTIAL = "No certificate has this ID.";

/**
 * Resolves what our own credentials refer to without leaving the process: the bundled JSON-LD
 * contexts, this issuer's DID document and keys, and our revocation lists (unsigned, built from
 * the database it would be signed from).
 */
function ownDocumentLoader(db: Kysely<DB>, config: Config) {
  const did = issuerDid(config);
  const statusPrefix = `${config.appUrl}/credentials/status/`;
  return async (url: string): Promise<RemoteDocument> => {
    const context = localContext(url);
    if (context) return context;
    if (url === did || url.startsWith(`${did}#`)) {
      const keys = await issuerKeys(db);
      if (url === did) return { contextUrl: null, documentUrl: url, document: didDocument(did, keys) };
      const key = keys.find((k) => `${did}#${k.id}` === url);
      if (key) return { contextUrl: null, documentUrl: url, document: verificationMethod(did, key) };
    }
    if (url.startsWith(statusPrefix)) {
      const listId = Number(url.slice(statusPrefix.length));
      if (Number.isSafeInteger(listId) && listId > 0) {
        const list = await buildStatusListCredential(db, config, listId);
        return { contextUrl: null, documentUrl: url, document: { ...list, issuer: did } };
      }
    }
    throw new Error(`Not loading "${url}": only local contexts and this issuer's documents are used.`);
  };
}

async function sign(db: Kysely<DB>, config: Config, credential: Json): Promise<Json> {
  const did = issuerDid(config);
  const [key] = await issuerKeys(db);
  if (!key) throw new Error("The issuer has no signing key (issuerKeys creates one when none is active).");
  const suite = new DataIntegrityProof({ signer: await signerFor(did, key), cryptosuite });
  return withProofArray(await vc.issue({ credential, suite, documentLoader: ownDocumentLoader(db, config) }));
}

/**
 * `proof` as an array of one: VC 2.0 allows a single object too, but 1EdTech's Open Badges 3.0 JSON
 * schema and validator require the array (decision 0052). The proof signs the document without
 * `proof`, so wrapping it changes nothing a verifier checks; credentials stored before are wrapped as read.
 */
const withProofArray = (credential: Json): Json =>
  credential.proof === undefined || Array.isArray(credential.proof)
    ? credential
    : { ...credential, proof: [credential.proof] };

/**
 * The certificate's signed OpenBadgeCredential, signed once and kept; signed again only when what
 * it says changed (the holder's name after a reissue, the dates and id after a renewal or extension). Parallel callers end with the same one.
 */
export async function credentialFor(
  db: Kysely<DB>,
  config: Config,
  catalogue: CourseCatalogue,
  row: CertificateRow,
): Promise<Json> {
  const entry = await allocateStatusEntry(db, row.certificateId);
  const storedRow = await db
    .selectFrom("credentialStatus")
    .select("credential")
    .where("certificateId", "=", row.certificateId)
    .executeTakeFirstOrThrow();
  const stored = storedRow.credential ? (JSON.parse(storedRow.credential) as Json) : null;
  const course = await earnedOn(catalogue, row);
  if (stored && isCurrent(stored, row, creditsOf(course).ceHours)) return withProofArray(stored);
  if (!course) throw notFound(NO_CREDENTIAL);
  const holder = await db.selectFrom("user").select("email").where("id", "=", row.userId).executeTakeFirstOrThrow();
  const signed = await sign(
    db,
    config,
    openBadgeCredential(config, {
      credentialId: credentialIdOf(row),
      certificateId: row.certificateId,
      holderName: holderNameOf(row),
      email: holder.email,
      validFrom: row.validFrom ?? row.completedAt,
      expiresAt: row.expiresAt,
      ...creditsOf(course),
      course,
      versionLine: versionLine(course, row.courseVersion),
      issuerDid: issuerDid(config),
      credentialStatus: statusEntryJson(config, entry),
    }),
  );
  // Only replaces what was read, so a parallel signer's result is kept rather than overwritten.
  await db
    .updateTable("credentialStatus")
    .set({ credential: JSON.stringify(signed) })
    .where("certificateId", "=", row.certificateId)
    .where((eb) =>
      storedRow.credential === null ? eb("credential", "is", null) : eb("credential", "=", storedRow.credential),
    )
    .execute();
  const final = await db
    .selectFrom("credentialStatus")
    .select("credential")
    .where("certificateId", "=", row.certificateId)
    .executeTakeFirstOrThrow();
  return final.credential ? withProofArray(JSON.parse(final.credential) as Json) : signed;
}

/** GET /api/certificates/:certificateId/credential: the holder's own credential only. */
export async function getHolderCredential(
  db: Kysely<DB>,
  config: Config,
  catalogue: CourseCatalogue,
  user: CurrentUser,
  certificateId: string,
): Promise<Json> {
  const row = await getOwnCertificateById(db, user, certificateId);
  return credentialFor(db, config, catalogue, row);
}

/**
 * Verifies the certificate's credential with the same library a wallet uses: proof, issuer key,
 * and revocation bit. An expired credential is checked as of just before it expired, so the page
 * can say both that the signature holds and that it has expired.
 */
export async function checkCertificateCredential(
  db: Kysely<DB>,
  config: Config,
  catalogue: CourseCatalogue,
  certificateId: string,
): Promise<CredentialCheck> {
  const row = await db
    .selectFrom("certificate")
    .select([
      "id",
      "certificateId",
      "userId",
      "courseId",
      "courseVersion",
      "firstName",
      "lastName",
      "nameOrder",
      "completedAt",
      "expiresAt",
      "ceHours",
      "credentialUuid",
      "validFrom",
    ])
    .where("certificateId", "=", certificateId)
    .executeTakeFirst();
  if (!row) throw notFound(NO_CREDENTIAL);
  const credential = await credentialFor(db, config, catalogue, row);
  const validUntil = new Date(String(credential.validUntil));
  const expired = validUntil.getTime() <= Date.now();
  const result = await vc.verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: ownDocumentLoader(db, config),
    // The list is built from this database; signing it only to check the signature again adds nothing here.
    checkStatus: (options) =>
      statusList.checkStatus({ ...(options as Json), verifyBitstringStatusListCredential: false }),
    ...(expired ? { now: new Date(validUntil.getTime() - 1000) } : {}),
  });
  const status = result.statusResult?.results?.[0];
  return {
    signatureVerified: result.verified,
    revoked: status?.status === true,
    expired,
    issuer: issuerDid(config),
  };
}

export async function getIssuerDidDocument(db: Kysely<DB>, config: Config) {
  return didDocument(issuerDid(config), await issuerKeys(db));
}

/** GET /credentials/status/:listId: the revocation list, signed by the current key. */
export async function getSignedStatusList(db: Kysely<DB>, config: Config, listId: number): Promise<Json> {
  const credential = await buildStatusListCredential(db, config, listId);
  return sign(db, config, {
    ...credential,
    issuer: issuerDid(config),
    validFrom: `${new Date().toISOString().slice(0, 19)}Z`,
  });
}
