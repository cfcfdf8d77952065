import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nth } from "../setup/must.ts";
import {
  createTestApp,
  request,
  signUpUser,
  TEST_ORIGIN,
  type TestApp,
  type TestUser,
  verificationLinkFor,
} from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpUser(t.app);
  await t.testDb.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
});
afterAll(async () => t?.close());

describe("smaller hardening (issue 24, item 8)", () => {
  it("a sign-up callbackURL with U+3000 gives a verification link that works (no 500)", async () => {
    const email = `ideographic-${Date.now()}@example.com`;
    const signUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: TEST_ORIGIN },
      remoteAddress: "192.0.2.240",
      payload: { email, password: "calm-river-42", firstName: "Ada", lastName: "Lee", callbackURL: "/courses\u3000x" },
    });
    expect(signUp.statusCode).toBe(200);
    const link = await verificationLinkFor(t, email);
    expect(link).toBeTruthy();
    const verified = await t.app.inject({ method: "GET", url: link as string });
    expect(verified.statusCode).toBeLessThan(400);
    expect(verified.headers.location).toBe("/courses%E3%80%80x");
  });

  it("the session-cookie lookup accepts exactly the signatures Better Auth accepts", async () => {
    const user = await signUpUser(t.app);
    const raw = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(user.cookie)?.[1] ?? "");
    const dot = raw.lastIndexOf(".");
    const [token, signature] = [raw.slice(0, dot), raw.slice(dot + 1)];
    const variants = {
      original: signature,
      "base64url alphabet": signature.replace(/\+/g, "-").replace(/\//g, "_"),
      "no padding": signature.replace(/=$/, ""),
      "trailing junk": `${signature}A`,
      "padding doubled": `${signature}=`,
    };
    for (const [label, sig] of Object.entries(variants)) {
      const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${sig}`)}`;
      const ours = (await request(t.app, "GET", "/api/auth/user", { cookie })).json();
      const theirs = (await request(t.app, "GET", "/api/auth/get-session", { cookie })).json();
      expect(ours !== null, `${label}: our lookup`).toBe(theirs !== null);
    }
    const original = `better-auth.session_token=${encodeURIComponent(raw)}`;
    expect((await request(t.app, "GET", "/api/auth/user", { cookie: original })).json()).not.toBeNull();
  });

  it("a practitioner's mailto: link takes one address and no extra headers", async () => {
    const listing = (contactUrl: string) =>
      request(t.app, "PUT", "/api/profile/practitioner", {
        cookie: admin.cookie,
        payload: { displayName: "Ada Lee", region: "Leeds", bio: "A calm and careful coach.", contactUrl },
      });
    for (const url of [
      "mailto:ada@example.com?cc=boss@example.com",
      "mailto:ada@example.com?bcc=x@example.com",
      "mailto:ada@example.com?body=Send%20me%20money",
      "mailto:ada@example.com?subject=Hi",
      "mailto:ada@example.com,eve@example.com",
      "mailto:ada@example.com%3Fcc%3Deve@example.com",
    ]) {
      const res = await listing(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/one e-mail address and nothing else/);
    }
    // The rule itself lets a plain address through (the listing then needs a certificate: 403 here).
    expect((await listing("mailto:ada@example.com")).json().message ?? "").not.toMatch(/mailto/);
  });

  it("bulk CSV refuses an e-mail address longer than sign-up allows, and echoes only its start", async () => {
    const long = `${"a".repeat(5000)}@example.com`;
    const res = await request(t.app, "POST", "/api/admin/enrollments/bulk", {
      cookie: admin.cookie,
      payload: { csv: `${long},fixture-basics\nok-${Date.now()}@example.com,fixture-basics` },
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().rows as { result: string; email: string; message: string }[];
    expect(rows.map((r) => r.result)).toEqual(["invalid-email", "pending"]);
    expect(nth(rows, 0).email.length).toBeLessThan(100);
    expect(nth(rows, 0).message).toMatch(/longer than an e-mail address can be/);
    const one = await request(t.app, "POST", "/api/admin-enroll-user", {
      cookie: admin.cookie,
      payload: { userEmail: long, courseId: "fixture-basics" },
    });
    expect(one.statusCode).toBe(400);
    const signUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: TEST_ORIGIN },
      remoteAddress: "192.0.2.241",
      payload: { email: long, password: "calm-river-42", firstName: "Ada", lastName: "Lee" },
    });
    expect(signUp.statusCode).toBe(400);
  });
});
