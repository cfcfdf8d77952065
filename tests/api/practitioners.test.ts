import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learnerWithCourseComplete } from "../setup/factories.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "directory-admin@academy.example" } });
  admin = await signUpUser(t.app, { email: "directory-admin@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

async function certified() {
  const user = await learnerWithCourseComplete(t);
  const issued = await request(t.app, "POST", "/api/certificate", {
    cookie: user.cookie,
    payload: { courseId: "fixture-basics" },
  });
  expect(issued.statusCode).toBe(200);
  return { user, cert: issued.json() };
}

const listing = (region: string) => ({
  displayName: `Coach ${region}`,
  region,
  bio: "Educational nutrition coaching, online and in person.",
  contactUrl: "https://coach.example/contact",
});
const optIn = (user: TestUser, body: unknown) =>
  request(t.app, "PUT", "/api/profile/practitioner", { cookie: user.cookie, payload: body });
const directory = async (query: string) =>
  (await request(t.app, "GET", `/api/practitioners?${query}`)).json().practitioners as { displayName: string }[];

describe("practitioner directory", () => {
  it("lists only holders of a valid certificate, searchable by course and region", async () => {
    const stranger = await signUpUser(t.app);
    const refused = await optIn(stranger, listing("Nowhere"));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/valid/);

    const { user, cert } = await certified();
    for (const contactUrl of ["http://coach.example", "javascript:alert(1)", "mailto:", "ftp://x.example"]) {
      const res = await optIn(user, { ...listing("Zürich"), contactUrl });
      expect(res.statusCode, contactUrl).toBe(400);
      expect(res.json().message, contactUrl).toBeTruthy();
    }
    expect((await optIn(user, { ...listing("Zürich"), contactUrl: "mailto:coach@example.com" })).statusCode).toBe(200);

    expect((await directory("region=zurich")).map((p) => p.displayName)).toContain("Coach Zürich");
    expect((await directory("region=zurich&course=fixture-basics")).map((p) => p.displayName)).toContain(
      "Coach Zürich",
    );
    expect(await directory("region=zurich&course=fixture-other")).toEqual([]);
    expect(await directory("region=%25")).toEqual([]);

    // Revoking the only certificate takes the listing out of the directory.
    await request(t.app, "POST", `/api/admin/certificates/${cert.certificateId}/revoke`, {
      cookie: admin.cookie,
      payload: { reason: "Issued in error" },
    });
    expect(await directory("region=zurich")).toEqual([]);
  });

  it("drops expired certificates and removes a listing at once on opt-out", async () => {
    const { user, cert } = await certified();
    expect((await optIn(user, listing("Lisbon"))).statusCode).toBe(200);
    expect(await directory("region=lisbon")).toHaveLength(1);

    await t.testDb.database.db
      .updateTable("certificate")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("certificateId", "=", cert.certificateId)
      .execute();
    expect(await directory("region=lisbon")).toEqual([]);
    await t.testDb.database.db
      .updateTable("certificate")
      .set({ expiresAt: new Date(Date.now() + 86_400_000).toISOString() })
      .where("certificateId", "=", cert.certificateId)
      .execute();
    expect(await directory("region=lisbon")).toHaveLength(1);

    const out = await request(t.app, "DELETE", "/api/profile/practitioner", { cookie: user.cookie });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ eligible: true, listing: null });
    expect(await directory("region=lisbon")).toEqual([]);
  });
});
