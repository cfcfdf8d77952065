import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeCourse } from "../setup/assessments.ts";
import { pdfFontNames, pdfWords, poppler } from "../setup/pdf-inspect.ts";
import { createTestApp, enrol, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const putProfile = (user: TestUser, payload: unknown) =>
  request(t.app, "PUT", "/api/profile", { cookie: user.cookie, payload });
const me = async (user: TestUser) => (await request(t.app, "GET", "/api/auth/user", { cookie: user.cookie })).json();

async function issue(user: TestUser) {
  const res = await request(t.app, "POST", "/api/certificate", {
    cookie: user.cookie,
    payload: { courseId: "fixture-basics" },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function certify(user: TestUser) {
  await enrol(t, user, "fixture-basics");
  await completeCourse(t.app, user.cookie, "fixture-basics");
  return issue(user);
}

const verified = async (certificateId: string) =>
  (await request(t.app, "GET", `/api/verify/${certificateId}`)).json().holderName;
const credentialName = async (user: TestUser, certificateId: string) =>
  (await request(t.app, "GET", `/api/certificates/${certificateId}/credential`, { cookie: user.cookie })).json()
    .credentialSubject.name;

describe("the profile's name order", () => {
  it("is given name first by default, and the learner's choice round-trips", async () => {
    const user = await signUpUser(t.app, { firstName: "太郎", lastName: "山田" });
    expect(await me(user)).toMatchObject({ firstName: "太郎", lastName: "山田", nameOrder: "given-first" });

    const saved = await putProfile(user, { firstName: "太郎", lastName: "山田", nameOrder: "family-first" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ nameOrder: "family-first" });
    expect(await me(user)).toMatchObject({ nameOrder: "family-first" });

    // A profile save without the order (an older client) keeps the chosen one.
    expect((await putProfile(user, { firstName: "太郎", lastName: "山田" })).statusCode).toBe(200);
    expect(await me(user)).toMatchObject({ nameOrder: "family-first" });

    expect((await putProfile(user, { firstName: "太郎", lastName: "山田", nameOrder: "given-first" })).statusCode).toBe(
      200,
    );
    expect(await me(user)).toMatchObject({ nameOrder: "given-first" });
  });

  it.each([["surname-first"], ["FAMILY-FIRST"], [""], [1], [null]])(
    "refuses the order %j with 400 and a message, changing nothing",
    async (nameOrder) => {
      const user = await signUpUser(t.app, { firstName: "Ada", lastName: "Lovelace" });
      const res = await putProfile(user, { firstName: "Augusta", lastName: "King", nameOrder });
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.json().message).toMatch(/Name order must be "given-first" or "family-first"/);
      expect(await me(user)).toMatchObject({ firstName: "Ada", lastName: "Lovelace", nameOrder: "given-first" });
    },
  );

  it("cannot be set by a visitor", async () => {
    const res = await request(t.app, "PUT", "/api/profile", {
      payload: { firstName: "A", lastName: "B", nameOrder: "family-first" },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("certificates in the learner's name order", () => {
  it("prints a family-first CJK name as 山田太郎 on the certificate, verify page, credential and PDF (bold CJK face)", async () => {
    const user = await signUpUser(t.app, { firstName: "太郎", lastName: "山田" });
    await putProfile(user, { firstName: "太郎", lastName: "山田", nameOrder: "family-first" });
    const cert = await certify(user);
    expect(cert).toMatchObject({
      firstName: "太郎",
      lastName: "山田",
      nameOrder: "family-first",
      holderName: "山田太郎",
    });
    expect(await verified(cert.certificateId)).toBe("山田太郎");
    expect(await credentialName(user, cert.certificateId)).toBe("山田太郎");

    const pdf = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`, { cookie: user.cookie });
    expect(pdf.statusCode).toBe(200);
    if (!poppler) return;
    const text = pdfWords(pdf.rawPayload)
      .map((w) => w.text)
      .join(" ");
    expect(text).toContain("山田太郎");
    expect(text).not.toContain("太郎 山田");
    expect(pdfFontNames(pdf.rawPayload).some((f) => /^([A-Z]{6}\+)?NotoSansSC-Bold\b/.test(f))).toBe(true);
  });

  it("puts the family name first with a space when either part is not CJK", async () => {
    const user = await signUpUser(t.app, { firstName: "László", lastName: "Nagy" });
    await putProfile(user, { firstName: "László", lastName: "Nagy", nameOrder: "family-first" });
    const cert = await certify(user);
    expect(cert.holderName).toBe("Nagy László");
    expect(await verified(cert.certificateId)).toBe("Nagy László");
  });

  it("keeps an issued certificate's name after the order changes, until the learner reissues it", async () => {
    const user = await signUpUser(t.app, { firstName: "민준", lastName: "김" });
    const cert = await certify(user);
    expect(cert.holderName).toBe("민준 김");
    expect(await credentialName(user, cert.certificateId)).toBe("민준 김");

    await putProfile(user, { firstName: "민준", lastName: "김", nameOrder: "family-first" });
    const kept = (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: user.cookie })).json();
    expect(kept).toMatchObject({ holderName: "민준 김", nameOrder: "given-first", nameDiffersFromProfile: true });
    expect(await verified(cert.certificateId)).toBe("민준 김");
    // Asking to issue again returns the same certificate, unchanged.
    expect((await issue(user)).holderName).toBe("민준 김");

    const reissued = await request(t.app, "POST", `/api/certificates/${cert.certificateId}/reissue`, {
      cookie: user.cookie,
      payload: {},
    });
    expect(reissued.json()).toMatchObject({
      certificateId: cert.certificateId,
      holderName: "김민준",
      nameDiffersFromProfile: false,
    });
    expect(await verified(cert.certificateId)).toBe("김민준");
    expect(await credentialName(user, cert.certificateId)).toBe("김민준");
    const changes = await t.testDb.database.db
      .selectFrom("certificateNameChange")
      .selectAll()
      .where("certificateId", "=", cert.certificateId)
      .execute();
    expect(changes).toMatchObject([{ oldNameOrder: "given-first", newNameOrder: "family-first" }]);
  });
});
