import { afterAll, describe, expect, it } from "vitest";
import { completeLessons, giveCertificate, newLearner } from "../setup/factories.ts";
import { createTestApp, request, TEST_ORIGIN } from "../setup/test-app.ts";

const t = await createTestApp();
afterAll(async () => t?.close());
const db = () => t.testDb.database.db;

const signIn = (email: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: TEST_ORIGIN },
    remoteAddress: "192.0.2.201",
    payload: { email, password },
  });

describe("the learner's own data", () => {
  it("downloads everything kept about the account as JSON, without secrets, to its owner only", async () => {
    const user = await newLearner(t, { enrolledIn: ["fixture-basics"], firstName: "Dana", lastName: "Export" });
    await completeLessons(t, user, "fixture-basics", ["alpha-one"]);
    await giveCertificate(db(), { id: user.id, firstName: "Dana", lastName: "Export" });
    const res = await request(t.app, "GET", "/api/account/export", { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain("attachment");
    const data = res.json();
    expect(data.account).toMatchObject({ email: user.email, firstName: "Dana", lastName: "Export" });
    expect(data.enrollments).toHaveLength(1);
    expect(data.progress.completedLessons).toHaveLength(1);
    expect(data.certificates).toHaveLength(1);
    for (const key of ["attempts", "orders", "practitionerListing"]) expect(data).toHaveProperty(key);
    expect(res.body).not.toMatch(/password|token/i);
    expect((await request(t.app, "GET", "/api/account/export")).statusCode).toBe(401);
  });

  it("deletes the account only with its password: signed out everywhere, personal data gone, the certificate still verifies", async () => {
    const user = await newLearner(t, { enrolledIn: ["fixture-basics"], firstName: "Eli", lastName: "Gone" });
    const second = await signIn(user.email, user.password);
    expect(second.statusCode).toBe(200);
    const otherDevice = String(second.headers["set-cookie"]).split(";")[0];
    await completeLessons(t, user, "fixture-basics", ["alpha-one"]);
    const certificateId = await giveCertificate(db(), { id: user.id, firstName: "Eli", lastName: "Gone" });

    const wrong = await request(t.app, "POST", "/api/account/delete", {
      cookie: user.cookie,
      payload: { password: "not-my-password" },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toMatch(/not deleted/);
    expect((await request(t.app, "GET", "/api/enrollments", { cookie: user.cookie })).statusCode).toBe(200);
    expect((await request(t.app, "POST", "/api/account/delete", { cookie: user.cookie, payload: {} })).statusCode).toBe(
      400,
    );

    const done = await request(t.app, "POST", "/api/account/delete", {
      cookie: user.cookie,
      payload: { password: user.password },
    });
    expect(done.statusCode).toBe(200);
    for (const cookie of [user.cookie, otherDevice])
      expect((await request(t.app, "GET", "/api/enrollments", { cookie })).statusCode).toBe(401);
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);

    const row = await db().selectFrom("user").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(user.email);
    expect([row.firstName, row.lastName]).toEqual(["", ""]);
    for (const table of ["session", "account", "enrollment", "lessonCompletion"] as const) {
      const left = await db().selectFrom(table).select("userId").where("userId", "=", user.id).execute();
      expect(left, table).toEqual([]);
    }
    const verify = (await request(t.app, "GET", `/api/verify/${certificateId}`)).json();
    expect(JSON.stringify(verify)).toContain("Eli");
    expect(JSON.stringify(verify)).not.toContain(user.email);
  });
});
