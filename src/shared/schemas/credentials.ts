import { z } from "zod";

/** The server's check of a certificate's Open Badges credential, shown on the public verify page. */
export const credentialCheckSchema = z.object({
  /** Proof and issuer key check out (as of just before expiry, for an expired credential). */
  signatureVerified: z.boolean(),
  /** The revocation list has the credential's bit set. */
  revoked: z.boolean(),
  expired: z.boolean(),
  /** The issuer's DID (did:web). */
  issuer: z.string(),
});
export type CredentialCheck = z.infer<typeof credentialCheckSchema>;

/**
 * A signed W3C verifiable credential (the learner's Open Badges 3.0 credential, a status list):
 * JSON-LD whose full shape is the standard's; only the fields every one has are named here.
 */
export const signedCredentialSchema = z.looseObject({
  "@context": z.array(z.unknown()),
  type: z.array(z.string()),
  issuer: z.unknown(),
  proof: z.unknown(),
});

/** The issuer's DID document (did:web): its public keys. */
export const didDocumentSchema = z.looseObject({ "@context": z.unknown(), id: z.string() });

export const statusListParamsSchema = z.strictObject({
  listId: z.coerce.number().int().min(1).max(1_000_000),
});
