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

export const statusListParamsSchema = z.strictObject({
  listId: z.coerce.number().int().min(1).max(1_000_000),
});
