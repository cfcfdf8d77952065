import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { formatLongDate } from "#shared/format.ts";
import { completeCourse } from "../setup/assessments.ts";
import { createTestApp, enrol, request, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";

// pdftotext/pdftoppm come from Debian's poppler-utils; .ci/run installs them. Without them (a fresh
// machine outside CI) the PDF is still checked to be a PDF, but its text and rendering are not.
const poppler = spawnSync("pdftotext", ["-v"]).status === 0;
if (!poppler && process.env.CI) throw new Error("pdftotext is missing: install poppler-utils");

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

/** Enrols the learner and completes fixture-basics (lessons, quizzes, final exam) through the API. */
async function finishCourse(user: TestUser) {
  await enrol(t, user, "fixture-basics");
  await completeCourse(t.app, user.cookie, "fixture-basics");
}

const issue = (user: TestUser, extra: Record<string, unknown> = {}) =>
  request(t.app, "POST", "/api/certificate", {
    cookie: user.cookie,
    payload: { courseId: "fixture-basics", ...extra },
  });

describe("issuing", () => {
  it("refuses without completion with 409 and writes nothing", async () => {
    const user = await signUpUser(t.app);
    expect(
      (await request(t.app, "POST", "/api/certificate", { payload: { courseId: "fixture-basics" } })).statusCode,
    ).toBe(401);
    expect((await issue(user)).statusCode).toBe(403);
    await enrol(t, user, "fixture-basics");
    const res = await issue(user);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Complete 5 lessons, .* and the final exam before requesting your certificate/);
    const rows = await t.testDb.database.db
      .selectFrom("certificate")
      .selectAll()
      .where("userId", "=", user.id)
      .execute();
    expect(rows).toEqual([]);
    const progress = (await request(t.app, "GET", "/api/progress/fixture-basics", { cookie: user.cookie })).json();
    expect(progress.isCompleted).toBe(false);
  });

  it("issues once with the profile name and the server's date, ignoring what the client sends", async () => {
    const user = await signUpUser(t.app, { firstName: "Zoë", lastName: "Ødegård" });
    await finishCourse(user);
    const before = Date.now();
    const res = await issue(user, { studentName: "Student Name", completedAt: "1999-01-01T00:00:00.000Z" });
    expect(res.statusCode).toBe(200);
    const cert = res.json();
    expect(cert).toMatchObject({
      courseId: "fixture-basics",
      courseTitle: "Fixture Basics",
      firstName: "Zoë",
      lastName: "Ødegård",
      status: "valid",
    });
    expect(cert.certificateId).toMatch(/^HWA-[A-Z2-7]{16}$/);
    expect(new Date(cert.completedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const years = new Date(cert.expiresAt).getUTCFullYear() - new Date(cert.completedAt).getUTCFullYear();
    expect(years).toBe(2);
    expect(cert.verifyUrl).toBe(`${t.config.appUrl}/verify/${cert.certificateId}`);
    const progress = (await request(t.app, "GET", "/api/progress/fixture-basics", { cookie: user.cookie })).json();
    expect(progress.isCompleted).toBe(true);
    expect((await issue(user)).json().certificateId).toBe(cert.certificateId);
    expect(
      (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: user.cookie })).json().certificateId,
    ).toBe(cert.certificateId);
    expect((await request(t.app, "GET", "/api/certificates", { cookie: user.cookie })).json()).toHaveLength(1);
  });

  it("gives exactly one certificate to parallel issue calls", async () => {
    const user = await signUpUser(t.app);
    await finishCourse(user);
    const results = await Promise.all(Array.from({ length: 6 }, () => issue(user)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json().certificateId)).size).toBe(1);
    const rows = await t.testDb.database.db
      .selectFrom("certificate")
      .select("id")
      .where("userId", "=", user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe("who may see what", () => {
  it("gives another learner 404 for your certificate and your PDF", async () => {
    const owner = await signUpUser(t.app);
    await finishCourse(owner);
    const cert = (await issue(owner)).json();
    const other = await signUpUser(t.app);
    const res = await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: other.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe("This certificate could not be found. Make sure you have completed the course.");
    expect(
      (await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`, { cookie: other.cookie })).statusCode,
    ).toBe(404);
    expect((await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`)).statusCode).toBe(401);
    expect((await request(t.app, "GET", "/api/certificates", { cookie: other.cookie })).json()).toEqual([]);
  });

  it("verifies publicly with no e-mail or user id, and 404 for an unknown ID", async () => {
    const owner = await signUpUser(t.app, { firstName: "<img src=x onerror=alert(1)>", lastName: "Tester" });
    await finishCourse(owner);
    const cert = (await issue(owner)).json();
    const res = await request(t.app, "GET", `/api/verify/${cert.certificateId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      certificateId: cert.certificateId,
      holderName: "<img src=x onerror=alert(1)> Tester",
      courseTitle: "Fixture Basics",
      completedAt: cert.completedAt,
      expiresAt: cert.expiresAt,
      status: "valid",
      revokedReason: null,
      issuer: "Holistic Wellness Academy",
      // fixture-basics states 6 study hours and no approving body: no CE hours are claimed.
      ceHours: null,
      creditStatement: "Estimated study time: 6 hours. Not approved for continuing-education credit.",
      assessmentStatement: null,
      courseVersion: {
        version: 1,
        publishedAt: expect.any(String),
        learningOutcomes: ["Explain the basics", "Apply the basics"],
        studyHours: 6,
      },
      history: [],
    });
    expect(res.body).not.toContain(owner.email);
    expect(res.body).not.toContain(owner.id);
    expect((await request(t.app, "GET", "/api/verify/HWA-AAAAAAAAAAAAAAAA")).statusCode).toBe(404);
  });

  it("rate limits the public verify route against ID scanning", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/verify/HWA-SCAN${String(i).padStart(12, "A")}`,
        remoteAddress: "203.0.113.9",
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });

  it("shows expired when the clock passes the expiry date, and revoked when revoked", async () => {
    const owner = await signUpUser(t.app);
    await finishCourse(owner);
    const cert = (await issue(owner)).json();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(new Date(cert.expiresAt).getTime() + 24 * 3600 * 1000));
    expect((await request(t.app, "GET", `/api/verify/${cert.certificateId}`)).json().status).toBe("expired");
    vi.useRealTimers();
    expect((await request(t.app, "GET", `/api/verify/${cert.certificateId}`)).json().status).toBe("valid");
    await t.testDb.database.db
      .updateTable("certificate")
      .set({ revokedAt: new Date().toISOString(), revokedReason: "test" })
      .where("certificateId", "=", cert.certificateId)
      .execute();
    expect((await request(t.app, "GET", `/api/verify/${cert.certificateId}`)).json().status).toBe("revoked");
    expect(
      (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: owner.cookie })).json().status,
    ).toBe("revoked");
  });
});

describe("names", () => {
  it("keeps the issued name after a profile change until the learner asks to reissue, keeping the ID and recording the change", async () => {
    const owner = await signUpUser(t.app, { firstName: "Maria", lastName: "Lopez" });
    await finishCourse(owner);
    const cert = (await issue(owner)).json();
    const renamed = await request(t.app, "PUT", "/api/profile", {
      cookie: owner.cookie,
      payload: { firstName: "María", lastName: "López García" },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await request(t.app, "GET", "/api/auth/user", { cookie: owner.cookie })).json()).toMatchObject({
      firstName: "María",
      lastName: "López García",
    });
    const kept = (await request(t.app, "GET", "/api/certificate/fixture-basics", { cookie: owner.cookie })).json();
    expect(kept).toMatchObject({ firstName: "Maria", lastName: "Lopez", nameDiffersFromProfile: true });
    const reissued = await request(t.app, "POST", `/api/certificates/${cert.certificateId}/reissue`, {
      cookie: owner.cookie,
      payload: {},
    });
    expect(reissued.json()).toMatchObject({
      certificateId: cert.certificateId,
      firstName: "María",
      lastName: "López García",
      nameDiffersFromProfile: false,
    });
    const changes = await t.testDb.database.db
      .selectFrom("certificateNameChange")
      .selectAll()
      .where("certificateId", "=", cert.certificateId)
      .execute();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ oldFirstName: "Maria", newLastName: "López García" });
    const other = await signUpUser(t.app);
    expect(
      (
        await request(t.app, "POST", `/api/certificates/${cert.certificateId}/reissue`, {
          cookie: other.cookie,
          payload: {},
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await request(t.app, "PUT", "/api/profile", {
          cookie: owner.cookie,
          payload: { firstName: " ", lastName: "X" },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await request(t.app, "PUT", "/api/profile", { payload: { firstName: "A", lastName: "B" } })).statusCode,
    ).toBe(401);
  });
});

describe("PDF", () => {
  const names: [string, string][] = [
    ["José", "Ñúñez-Øberg"],
    ["Αλέξανδρος", "Παπαδόπουλος"],
    ["Анна", "Каренина"],
    ["小明", "王"],
    ["محمد", "عبد الله"],
    ["דוד", "כהן"],
  ];
  it.each(names)(
    "renders a real PDF for %s %s, with the name, course and ID in its text",
    async (firstName, lastName) => {
      const owner = await signUpUser(t.app, { firstName, lastName });
      await finishCourse(owner);
      const cert = (await issue(owner)).json();
      const res = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`, { cookie: owner.cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(String(res.headers["content-disposition"])).toContain(`certificate-${cert.certificateId}.pdf`);
      const bytes = res.rawPayload;
      expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
      if (!poppler) return;
      const dir = mkdtempSync(join(tmpdir(), "pdf-"));
      const file = join(dir, "certificate.pdf");
      writeFileSync(file, bytes);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).normalize("NFC");
      const plain = text.replace(/[\u200e\u200f\u202a-\u202e]/g, "");
      for (const part of [...firstName.split(" "), ...lastName.split(" ")]) expect(plain).toContain(part);
      for (const s of [
        "Certificate of Completion",
        "Fixture Basics",
        cert.certificateId,
        "Authorized Institution",
        "Date Completed",
        "Valid Until",
      ])
        expect(plain).toContain(s);
      // What a screen reader reads: each label and each value its own paragraph, never "Date CompletedDecember 3".
      const struct = execFileSync("pdfinfo", ["-struct-text", file], { encoding: "utf8" });
      const paragraphs = [...struct.matchAll(/^\s+"(.*)"$/gm)].map((m) => m[1]);
      const completed = formatLongDate(cert.completedAt);
      expect(paragraphs).toEqual(
        expect.arrayContaining(["Date Completed", completed, "Valid Until", "Certificate ID"]),
      );
      expect(paragraphs).toContain(cert.certificateId);
      expect(paragraphs.indexOf(completed)).toBe(paragraphs.indexOf("Date Completed") + 1);
      expect(paragraphs).not.toContain(`Date Completed${completed}`);
      expect(paragraphs).toEqual(expect.arrayContaining(["Authorized Institution", "Holistic Wellness Academy"]));
      const xmp = execFileSync("pdfinfo", ["-meta", file], { encoding: "utf8" });
      expect(xmp).toContain("<pdfuaid:part>1</pdfuaid:part>");
      expect(xmp).toMatch(
        /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Certificate of Completion - Fixture Basics</,
      );
      expect(xmp).toMatch(/<dc:language><rdf:Bag><rdf:li>en-US</);
      execFileSync("pdftoppm", ["-png", "-r", "30", "-singlefile", file, join(dir, "page")]);
      expect(readdirSync(dir)).toContain("page.png");
    },
  );

  it.skipIf(!poppler)(
    "fits a 255-character name on one page, ending it with an ellipsis after three lines",
    async () => {
      const long = "Bartholomew".repeat(23).slice(0, 255);
      const owner = await signUpUser(t.app, { firstName: long, lastName: "X" });
      await finishCourse(owner);
      const cert = (await issue(owner)).json();
      const res = await request(t.app, "GET", `/api/certificates/${cert.certificateId}/pdf`, { cookie: owner.cookie });
      const dir = mkdtempSync(join(tmpdir(), "pdf-"));
      writeFileSync(join(dir, "c.pdf"), res.rawPayload);
      const info = execFileSync("pdfinfo", [join(dir, "c.pdf")], { encoding: "utf8" });
      expect(info).toMatch(/Pages:\s+1/);
      expect(info).toMatch(/Page size:\s+841\.89 x 595\.28/);
      const text = execFileSync("pdftotext", [join(dir, "c.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, "");
      expect(text).toContain(long.slice(0, 120));
      expect(text).toContain("…");
    },
  );
});
