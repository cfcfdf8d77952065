import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;
let instructor: TestUser;
let learner: TestUser;
const COURSE = "fixture-basics";

async function withRole(role: "assessor" | "instructor") {
  const user = await signUpUser(t.app);
  const res = await request(t.app, "PUT", `/api/admin/learners/${user.id}/role`, {
    cookie: admin.cookie,
    payload: { role },
  });
  expect(res.statusCode).toBe(200);
  return user;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  instructor = await withRole("instructor");
  learner = await signUpUser(t.app);
});
afterAll(async () => t?.close());

const slugCheck = (slug: string, user?: TestUser) =>
  request(t.app, "GET", `/api/studio/course-slug?slug=${encodeURIComponent(slug)}`, { cookie: user?.cookie });

describe("the new-course slug check", () => {
  it("says a slug is free until a course, published or only drafted, takes it", async () => {
    expect((await slugCheck("tea-ceremony", admin)).json()).toEqual({ slug: "tea-ceremony", available: true });
    expect((await slugCheck(COURSE, admin)).json()).toEqual({ slug: COURSE, available: false });
    const created = await request(t.app, "POST", "/api/studio/courses", {
      cookie: admin.cookie,
      payload: { slug: "tea-ceremony", title: "Tea Ceremony" },
    });
    expect(created.statusCode).toBe(200);
    expect((await slugCheck("tea-ceremony", admin)).json()).toEqual({ slug: "tea-ceremony", available: false });
  });

  it("refuses a slug that is not of a slug's form, with the reason", async () => {
    for (const bad of ["Tea", "tea--ceremony", "-tea", "tea ceremony", ""]) {
      const res = await slugCheck(bad, admin);
      expect(res.statusCode, bad).toBe(400);
      expect(typeof res.json().message).toBe("string");
    }
  });

  it("is for admins only: instructors and learners get 403, visitors 401", async () => {
    expect((await slugCheck("tea-house", instructor)).statusCode).toBe(403);
    expect((await slugCheck("tea-house", learner)).statusCode).toBe(403);
    expect((await slugCheck("tea-house")).statusCode).toBe(401);
  });
});

describe("the instructors an admin assigns", () => {
  it("lists every instructor and nobody else, for admins only", async () => {
    const res = await request(t.app, "GET", "/api/studio/instructors", { cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { id: string }[]).map((i) => i.id);
    expect(ids).toContain(instructor.id);
    expect(ids).not.toContain(learner.id);
    expect(ids).not.toContain(admin.id);
    expect((await request(t.app, "GET", "/api/studio/instructors", { cookie: instructor.cookie })).statusCode).toBe(
      403,
    );
    expect((await request(t.app, "GET", "/api/studio/instructors", { cookie: learner.cookie })).statusCode).toBe(403);
    expect((await request(t.app, "GET", "/api/studio/instructors")).statusCode).toBe(401);
  });
});
