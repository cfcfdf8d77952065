import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCoupon } from "#server/modules/coupons/coupons.service.ts";
import { learnerWithCourseComplete, newLearner } from "../setup/factories.ts";
import { registeredRoutes } from "../setup/routes.ts";
import {
  buyInSandbox,
  createTestApp,
  enrol,
  request,
  signUpUser,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

// Created while the file is collected, so the matrix below can list the routes the app registered.
const t = await createTestApp({ env: { ADMIN_EMAILS: "head@academy.example" } });
let admin: TestUser;
let learner: TestUser;

beforeAll(async () => {
  admin = await signUpUser(t.app, { email: "head@academy.example" });
  await verifyEmail(t, admin);
  learner = await signUpUser(t.app);
});
afterAll(async () => t?.close());

const db = () => t.testDb.database.db;
const as = (user: TestUser | null, method: "GET" | "POST", url: string, payload?: unknown) =>
  request(t.app, method, url, { cookie: user?.cookie, payload: method === "POST" ? (payload ?? {}) : undefined });
const auditCount = async () =>
  Number(
    (
      await db()
        .selectFrom("auditLog")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("authorisation matrix over every admin endpoint", () => {
  // Every /api/admin route Fastify has, so a new one cannot be left out. Writes need a valid body to
  // get past validation to the permission check: a new write route fails here until it has one.
  const adminRoutes = registeredRoutes(t.app).filter((r) => r.url.startsWith("/api/admin"));
  const bodies: Record<string, unknown> = {
    "POST /api/admin-enroll-user": { userEmail: "x@example.com", courseId: "fixture-basics" },
    "POST /api/admin/enrollments/bulk": { csv: "x@example.com,fixture-basics" },
    "POST /api/admin/coupons": { code: "MATRIX", percentOff: 10 },
    "POST /api/admin/certificates/:certificateId/revoke": { reason: "matrix" },
    "POST /api/admin/certificates/:certificateId/extend": { until: "2030-01-01", reason: "matrix" },
    "POST /api/admin/learners/:id/attempt-grants": { courseId: "fixture-basics", assessment: "alpha" },
    "PUT /api/admin/learners/:id/accommodation": { timeMultiplier: 1.5 },
    "PUT /api/admin/learners/:id/role": { role: "learner" },
    "POST /api/admin/course-staff": { userId: "some-id", courseId: "fixture-basics", role: "assessor" },
    "POST /api/admin/learners/:id/posting": { suspended: true, reason: "matrix" },
  };
  const params: Record<string, string> = { certificateId: "HWA-AAAAAAAAAAAAAAAA", role: "assessor" };
  // Reads that need a query to get past validation.
  const queries: Record<string, string> = {
    "GET /api/admin/item-statistics": "?courseId=fixture-basics",
    "GET /api/admin/item-statistics.csv": "?courseId=fixture-basics",
    "GET /api/admin/analytics/overview": "?from=2026-01-01&to=2026-01-31",
    "GET /api/admin/analytics/assessments": "?from=2026-01-01&to=2026-01-31",
    "GET /api/admin/analytics/questions": "?from=2026-01-01&to=2026-01-31",
    "GET /api/admin/analytics/funnel": "?from=2026-01-01&to=2026-01-31&courseId=fixture-basics",
    "GET /api/admin/analytics/export.csv": "?table=funnel&from=2026-01-01&to=2026-01-31&courseId=fixture-basics",
  };
  const concrete = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "some-id");

  it("finds the admin routes in Fastify's route table", () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(10);
    expect(adminRoutes).toContainEqual({ method: "POST", url: "/api/admin/orders/:id/refund" });
  });

  for (const { method, url } of adminRoutes) {
    it(`${method} ${url}: visitor 401, learner 403 with nothing written, admin allowed`, async () => {
      const key = `${method} ${url}`;
      const payload = method === "GET" ? undefined : (bodies[key] ?? {});
      const send = (user: TestUser | null) =>
        request(t.app, method as "GET" | "POST" | "PUT" | "DELETE", concrete(url) + (queries[key] ?? ""), {
          cookie: user?.cookie,
          payload,
        });
      const before = await auditCount();
      expect((await send(null)).statusCode, key).toBe(401);
      const res = await send(learner);
      expect(res.statusCode, key).toBe(403);
      expect(res.json().message).toBe("Admins only.");
      expect(await auditCount()).toBe(before);
      expect([200, 404], `${key} as admin`).toContain((await send(admin)).statusCode);
    });
  }
  // Public on purpose: the share images of the public pages (decision 0067), for any visitor or crawler.
  const publicRoutes = registeredRoutes(t.app).filter((r) => r.url.startsWith("/api/share-images"));
  it("the share-image routes are public: a visitor is served or told 404, never refused", async () => {
    expect(publicRoutes.map((r) => r.url).sort()).toEqual([
      "/api/share-images/academy",
      "/api/share-images/certificates/:certificateId",
      "/api/share-images/courses/:courseId",
    ]);
    for (const { url } of publicRoutes) {
      const res = await request(
        t.app,
        "GET",
        url.replace(":courseId", "fixture-basics").replace(":certificateId", "HWA-AAAAAAAAAAAAAAAA"),
      );
      expect([200, 404], url).toContain(res.statusCode);
    }
  });
  it("the x-user-email header does not make a learner an admin", async () => {
    const res = await request(t.app, "GET", "/api/admin/orders", {
      cookie: learner.cookie,
      headers: { "x-user-email": "head@academy.example" },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("admin enrolment", () => {
  it("enrols an existing account, says so, and refuses a second time with success false", async () => {
    const target = await signUpUser(t.app);
    const res = (
      await as(admin, "POST", "/api/admin-enroll-user", {
        userEmail: target.email.toUpperCase(),
        courseId: "fixture-basics",
      })
    ).json();
    expect(res).toMatchObject({ success: true, outcome: "enrolled" });
    expect(res.message).toContain("has been enrolled in Fixture Basics");
    expect((await as(target, "GET", "/api/enrollments/fixture-basics")).json()).toEqual({ enrolled: true });
    const again = (
      await as(admin, "POST", "/api/admin-enroll-user", { userEmail: target.email, courseId: "fixture-basics" })
    ).json();
    expect(again).toMatchObject({ success: false, outcome: "already-enrolled" });
    expect(again.message).toContain("already enrolled");
  });

  it("records a pending enrolment for an unknown e-mail that applies once the address is verified, not at sign-up", async () => {
    const res = (
      await as(admin, "POST", "/api/admin-enroll-user", { userEmail: "future@example.com", courseId: "fixture-other" })
    ).json();
    expect(res).toMatchObject({ success: true, outcome: "pending" });
    expect(res.message).toMatch(/no account yet.*verify it/);
    const newcomer = await signUpUser(t.app, { email: "future@example.com" });
    const pendingRow = () =>
      db()
        .selectFrom("pendingEnrollment")
        .selectAll()
        .where("email", "=", "future@example.com")
        .executeTakeFirstOrThrow();
    // Whoever signed up first has not shown the address is theirs: nothing applies yet.
    expect((await as(newcomer, "GET", "/api/enrollments/fixture-other")).json()).toEqual({ enrolled: false });
    expect((await pendingRow()).appliedAt).toBeNull();
    await verifyEmail(t, newcomer);
    expect((await as(newcomer, "GET", "/api/enrollments/fixture-other")).json()).toEqual({ enrolled: true });
    expect((await pendingRow()).appliedAt).not.toBeNull();
  });

  it("applies a pending enrolment when a password reset proves the address", async () => {
    const email = `reset-proof-${Date.now()}@example.com`;
    await as(admin, "POST", "/api/admin-enroll-user", { userEmail: email, courseId: "fixture-other" });
    const squatter = await signUpUser(t.app, { email });
    expect((await as(squatter, "GET", "/api/enrollments/fixture-other")).json()).toEqual({ enrolled: false });
    await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email, redirectTo: "/reset-password" },
    });
    await t.app.deps.background.idle();
    const token = await db()
      .selectFrom("verification")
      .select("identifier")
      .where("identifier", "like", "reset-password:%")
      .where("value", "=", squatter.id)
      .executeTakeFirstOrThrow();
    const reset = await request(t.app, "POST", "/api/auth/reset-password", {
      payload: { token: token.identifier.slice("reset-password:".length), newPassword: "a fresh long passphrase 42" },
    });
    expect(reset.statusCode).toBe(200);
    const owner = await db().selectFrom("enrollment").select("courseId").where("userId", "=", squatter.id).execute();
    expect(owner.map((e) => e.courseId)).toEqual(["fixture-other"]);
  });

  it("rejects missing or bad input with 400 and a message", async () => {
    expect((await as(admin, "POST", "/api/admin-enroll-user", { userEmail: "", courseId: "" })).statusCode).toBe(400);
    expect(
      (
        await as(admin, "POST", "/api/admin-enroll-user", { userEmail: "not-an-email", courseId: "fixture-basics" })
      ).json().message,
    ).toMatch(/valid email/);
    expect(
      (await as(admin, "POST", "/api/admin-enroll-user", { userEmail: "a@example.com", courseId: "nope" })).json()
        .message,
    ).toMatch(/no course/);
  });

  it("refuses to enrol anyone, by e-mail or CSV, in a coming-soon course, and writes nothing", async () => {
    const someone = await signUpUser(t.app);
    for (const userEmail of [someone.email, "not-yet-here@example.com"]) {
      const res = await as(admin, "POST", "/api/admin-enroll-user", { userEmail, courseId: "fixture-soon" });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/coming soon/);
    }
    const bulk = (
      await as(admin, "POST", "/api/admin/enrollments/bulk", { csv: `${someone.email},fixture-soon` })
    ).json();
    expect(bulk.rows.map((r: { result: string }) => r.result)).toEqual(["coming-soon"]);
    const rows = await db().selectFrom("enrollment").select("id").where("courseId", "=", "fixture-soon").execute();
    const pending = await db()
      .selectFrom("pendingEnrollment")
      .select("id")
      .where("courseId", "=", "fixture-soon")
      .execute();
    expect([rows, pending]).toEqual([[], []]);
  });

  it("reports each row of a mixed CSV, and a bad row does not stop the good ones", async () => {
    const existing = await signUpUser(t.app);
    await enrol(t, existing, "fixture-other");
    const csv = [
      "email,courseId",
      `${existing.email},fixture-basics`,
      "brand-new@example.com,fixture-basics",
      `${existing.email},fixture-other`,
      "someone@example.com,no-such-course",
      "not an email,fixture-basics",
      '"quoted@example.com","fixture-other"',
      "",
    ].join("\n");
    const res = (await as(admin, "POST", "/api/admin/enrollments/bulk", { csv })).json();
    expect(res.rows.map((r: { result: string }) => r.result)).toEqual([
      "enrolled",
      "pending",
      "already-enrolled",
      "unknown-course",
      "invalid-email",
      "pending",
    ]);
    expect(res.rows.map((r: { line: number }) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(res.counts).toEqual({
      enrolled: 1,
      pending: 2,
      "already-enrolled": 1,
      "unknown-course": 1,
      "invalid-email": 1,
    });
  });
});

describe("coupons, orders and refunds", () => {
  it("creates, lists with redemption counts, and deactivates coupons", async () => {
    const created = (
      await as(admin, "POST", "/api/admin/coupons", { code: "spring25", percentOff: 25, maxRedemptions: 10 })
    ).json();
    expect(created).toMatchObject({ code: "SPRING25", percentOff: 25, redemptionCount: 0, active: true });
    expect((await as(admin, "POST", "/api/admin/coupons", { code: "SPRING25", percentOff: 25 })).statusCode).toBe(409);
    expect(
      (await as(admin, "POST", "/api/admin/coupons", { code: "BOTH", percentOff: 5, amountOff: 100 })).statusCode,
    ).toBe(400);
    const list = (await as(admin, "GET", "/api/admin/coupons")).json();
    expect(list.find((c: { code: string }) => c.code === "SPRING25")).toBeTruthy();
    const off = (await as(admin, "POST", `/api/admin/coupons/${created.id}/deactivate`)).json();
    expect(off.active).toBe(false);
    expect((await as(learner, "POST", "/api/validate-coupon", { couponCode: "spring25" })).json().message).toBe(
      "Invalid coupon code",
    );
  });

  it("searches and pages orders, refunds within 7 days, and the refund ends access", async () => {
    const buyer = await signUpUser(t.app, { email: `refund-me-${Date.now()}@example.com` });
    await buyInSandbox(t, buyer, "fixture-basics");
    expect((await as(buyer, "GET", "/api/courses/fixture-basics/lessons/alpha-two")).statusCode).toBe(200);
    const found = (
      await as(admin, "GET", `/api/admin/orders?q=${encodeURIComponent("refund-me")}&page=1&pageSize=5`)
    ).json();
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      userEmail: buyer.email,
      courseId: "fixture-basics",
      courseTitle: "Fixture Basics",
      amount: 2000,
      status: "paid",
      refundable: true,
    });
    const refund = await as(admin, "POST", `/api/admin/orders/${found.items[0].id}/refund`);
    expect(refund.statusCode).toBe(200);
    expect(refund.json().status).toBe("refunded");
    expect((await as(buyer, "GET", "/api/courses/fixture-basics/lessons/alpha-two")).statusCode).toBe(403);
    expect((await as(buyer, "GET", "/api/enrollments/fixture-basics")).json()).toEqual({ enrolled: false });
    const order = await db()
      .selectFrom("order")
      .selectAll()
      .where("id", "=", found.items[0].id)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("refunded");
    expect(order.refundId).toMatch(/^re_sandbox_/);
    expect((await as(admin, "POST", `/api/admin/orders/${found.items[0].id}/refund`)).statusCode).toBe(409);
    const paged = (await as(admin, "GET", "/api/admin/orders?page=1&pageSize=1")).json();
    expect(paged.items).toHaveLength(1);
    expect(paged.pageSize).toBe(1);
  });

  it("a free claim offers no refund, and a refund of it is refused with nothing changed", async () => {
    await createCoupon(db(), { code: "ADMINFREE", percentOff: 100 });
    const claimer = await signUpUser(t.app);
    await buyInSandbox(t, claimer, "fixture-other", "ADMINFREE");
    const { items } = (await as(admin, "GET", `/api/admin/orders?q=${encodeURIComponent(claimer.email)}`)).json();
    expect(items[0]).toMatchObject({ amount: 0, status: "paid", refundable: false, courseTitle: "Fixture Other" });
    const res = await as(admin, "POST", `/api/admin/orders/${items[0].id}/refund`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/claimed free/);
    expect((await as(claimer, "GET", "/api/enrollments/fixture-other")).json()).toEqual({ enrolled: true });
    const order = await db()
      .selectFrom("order")
      .select("status")
      .where("id", "=", items[0].id)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("paid");
  });

  it("refuses a refund past 7 days with a message", async () => {
    const buyer = await signUpUser(t.app);
    await buyInSandbox(t, buyer, "fixture-other");
    const { items } = (await as(admin, "GET", `/api/admin/orders?q=${encodeURIComponent(buyer.email)}`)).json();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 8 * 24 * 3600 * 1000));
    try {
      const res = await as(admin, "POST", `/api/admin/orders/${items[0].id}/refund`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/within 7 days/);
    } finally {
      vi.useRealTimers();
    }
    expect((await as(buyer, "GET", "/api/enrollments/fixture-other")).json()).toEqual({ enrolled: true });
  });
});

describe("learners, certificates and the audit log", () => {
  it("lists learners with progress and certificate status, revokes a certificate, and the verify route shows it", async () => {
    // The whole course done: every lesson, both quizzes and the final exam, so 100%.
    const grad = await learnerWithCourseComplete(t, { email: `grad-${Date.now()}@example.com` });
    const cert = (await as(grad, "POST", "/api/certificate", { courseId: "fixture-basics" })).json();

    const list = (await as(admin, "GET", `/api/admin/learners?q=${encodeURIComponent(grad.email)}`)).json();
    expect(list.total).toBe(1);
    expect(list.items[0].courses).toEqual([
      { courseId: "fixture-basics", percent: 100, certificateId: cert.certificateId, certificateStatus: "valid" },
    ]);

    expect(
      (await as(admin, "POST", `/api/admin/certificates/${cert.certificateId}/revoke`, { reason: "" })).statusCode,
    ).toBe(400);
    expect(
      (await as(admin, "POST", `/api/admin/certificates/${cert.certificateId}/revoke`, { reason: "Issued in error" }))
        .statusCode,
    ).toBe(200);
    expect((await request(t.app, "GET", `/api/verify/${cert.certificateId}`)).json().status).toBe("revoked");
  });

  it("records who did what, to what and when, and admins can read it", async () => {
    const someone = await newLearner(t);
    await as(admin, "POST", "/api/admin-enroll-user", { userEmail: someone.email, courseId: "fixture-basics" });
    await as(admin, "POST", "/api/admin-enroll-user", {
      userEmail: `later-${Date.now()}@example.com`,
      courseId: "fixture-basics",
    });
    await as(admin, "POST", "/api/admin/enrollments/bulk", { csv: `${someone.email},fixture-other` });
    const coupon = (
      await as(admin, "POST", "/api/admin/coupons", { code: `AUDIT${Date.now()}`, percentOff: 5 })
    ).json();
    await as(admin, "POST", `/api/admin/coupons/${coupon.id}/deactivate`);
    const buyer = await newLearner(t);
    await buyInSandbox(t, buyer, "fixture-basics");
    const { items } = (await as(admin, "GET", `/api/admin/orders?q=${encodeURIComponent(buyer.email)}`)).json();
    expect((await as(admin, "POST", `/api/admin/orders/${items[0].id}/refund`)).statusCode).toBe(200);
    const grad = await learnerWithCourseComplete(t);
    const cert = (await as(grad, "POST", "/api/certificate", { courseId: "fixture-basics" })).json();
    await as(admin, "POST", `/api/admin/certificates/${cert.certificateId}/revoke`, { reason: "Issued in error" });

    const log = (await as(admin, "GET", "/api/admin/audit?pageSize=100")).json();
    const actions = log.items.map((e: { action: string }) => e.action);
    for (const a of [
      "enrollment.create",
      "enrollment.pending",
      "enrollment.bulk",
      "coupon.create",
      "coupon.deactivate",
      "order.refund",
      "certificate.revoke",
    ])
      expect(actions).toContain(a);
    const revoke = log.items.find(
      (e: { action: string; target: string }) => e.action === "certificate.revoke" && e.target === cert.certificateId,
    );
    expect(revoke).toMatchObject({ actorEmail: "head@academy.example", details: { reason: "Issued in error" } });
    expect(new Date(revoke.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});
