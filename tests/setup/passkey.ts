import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { withCookies } from "./second-factor.ts";
import { TEST_ORIGIN, type TestApp } from "./test-app.ts";

/**
 * A software WebAuthn authenticator for the API tests (the browser tests use Chromium's virtual one):
 * an ES256 key pair and a credential id, answering the server's challenges with "none" attestation
 * and signed assertions, as a platform authenticator does. `credentialId` can be chosen, as any
 * authenticator may.
 */
export interface SoftPasskey {
  credentialId: string;
  /**
   * Registers the credential to the signed-in account; the answer as the server gave it. With
   * `challengeOf`, the challenge is the one the server gave that other browser (another account).
   */
  register(
    t: TestApp,
    cookie: string,
    name?: string,
    challengeOf?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Signs the server's challenge; `cookie` is the browser's jar (a session or none). */
  assert(
    t: TestApp,
    cookie: string,
  ): Promise<{ status: number; body: Record<string, unknown>; cookie: string; setCookie: string[] }>;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** The little CBOR WebAuthn needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: ${typeof value}`);
}

let address = 0;
async function call(t: TestApp, method: "GET" | "POST", url: string, cookie: string, payload?: object) {
  address++;
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: `192.0.2.${(address % 40) + 210}`,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });
  const raw = res.headers["set-cookie"];
  const setCookie = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return {
    res,
    cookie: withCookies(cookie, res),
    setCookie,
    body: (res.body ? res.json() : {}) as Record<string, unknown>,
  };
}

export function softPasskey(credentialId: Uint8Array = randomBytes(16)): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const id = b64url(credentialId);
  const rpIdHash = sha256(new URL(TEST_ORIGIN).hostname);
  let counter = 0;
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: TEST_ORIGIN, crossOrigin: false }));

  return {
    credentialId: id,
    async register(t, cookie, name = "Test key", challengeOf) {
      const options = await call(t, "GET", "/api/auth/passkey/generate-register-options", challengeOf ?? cookie);
      if (options.res.statusCode !== 200) return { status: options.res.statusCode, body: options.body };
      const coseKey = new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      // Flags: user present, user verified, attested credential data.
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([0x45]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        idLength,
        credentialId,
        cbor(coseKey),
      ]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      const response = {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", String(options.body.challenge))),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      };
      // The challenge's cookie goes with the answer, beside the session of `cookie`.
      const challenge = { headers: { "set-cookie": options.setCookie } } as unknown as Parameters<
        typeof withCookies
      >[1];
      const jar = challengeOf ? withCookies(cookie, challenge) : options.cookie;
      const verified = await call(t, "POST", "/api/auth/passkey/verify-registration", jar, { response, name });
      return { status: verified.res.statusCode, body: verified.body };
    },
    async assert(t, cookie) {
      const options = await call(t, "GET", "/api/auth/passkey/generate-authenticate-options", cookie);
      counter++;
      const signCount = Buffer.alloc(4);
      signCount.writeUInt32BE(counter);
      const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([0x05]), signCount]);
      const clientDataJSON = clientData("webauthn.get", String(options.body.challenge));
      const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey);
      const response = {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
      const verified = await call(t, "POST", "/api/auth/passkey/verify-authentication", options.cookie, { response });
      return {
        status: verified.res.statusCode,
        body: verified.body,
        cookie: verified.cookie,
        setCookie: verified.setCookie,
      };
    },
  };
}
