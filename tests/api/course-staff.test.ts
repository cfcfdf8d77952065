import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coursesStaffedBy, isCourseStaff } from "#server/modules/staff/course-staff.ts";
import type { CourseStaff } from "#shared/schemas/staff.ts";
import { COACH_QUALIFICATIONS } from "../setup/practical.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;
const db = () => t.testDb.database.db;
const put = (url: string, cookie: string | undefined, payload: unknown) =>
  request(t.app, "PUT", url, { cookie, payload });
const assign = (cookie: string | undefined, payload: unknown) =>
  request(t.app, "POST", "/api/admin/course-staff", { cookie, payload });
const unassign = (cookie: string | undefined, userId: string, courseId: string, role: string) =>
  request(t.app, "DELETE", `/api/admin/course-staff/${userId}/${courseId}/${role}`, { cookie });
const list = async (query = "") =>
  (await request(t.app, "GET", `/api/admin/course-staff${query}`, { cookie: admin.cookie })).json()
    .items as CourseStaff[];
const auditActions = async (target: string) =>
  (await db().selectFrom("auditLog").select("action").where("target", "=", target).orderBy("createdAt").execute()).map(
    (r) => r.action,
  );
const roleOf = async (user: TestUser) =>
  (await request(t.app, "GET", "/api/auth/user", { cookie: user.cookie })).json().role as string;

async function staffMember(role: "assessor" | "instructor") {
  const user = await signUpUser(t.app);
  expect((await put(`/api/admin/learners/${user.id}/role`, admin.cookie, { role })).statusCode).toBe(200);
  // An assessor is assigned only with their qualifications on record (docs/decisions/0053).
  if (role === "assessor")
    expect((await put("/api/review/profile", user.cookie, COACH_QUALIFICATIONS)).statusCode).toBe(200);
  return user;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "chief@academy.example" } });
  admin = await signUpUser(t.app, { email: "chief@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

describe("the instructor role", () => {
  it("is granted and taken away by an admin like the assessor role, and audited", async () => {
    const user = await signUpUser(t.app);
    expect(await roleOf(user)).toBe("learner");
    const granted = await put(`/api/admin/learners/${user.id}/role`, admin.cookie, { role: "instructor" });
    expect(granted.json()).toEqual({ userId: user.id, role: "instructor" });
    expect(await roleOf(user)).toBe("instructor");
    expect((await put(`/api/admin/learners/${user.id}/role`, admin.cookie, { role: "learner" })).statusCode).toBe(200);
    expect(await roleOf(user)).toBe("learner");
    expect(await auditActions(user.email)).toEqual(["role.instructor.grant", "role.instructor.revoke"]);
  });

  it("cannot be given to an admin, nor by someone to themselves, nor by a non-admin", async () => {
    const instructor = await staffMember("instructor");
    expect((await put(`/api/admin/learners/${admin.id}/role`, admin.cookie, { role: "instructor" })).statusCode).toBe(
      409,
    );
    const other = await signUpUser(t.app);
    const byInstructor = await put(`/api/admin/learners/${other.id}/role`, instructor.cookie, { role: "instructor" });
    expect(byInstructor.statusCode).toBe(403);
    expect(await roleOf(other)).toBe("learner");
    expect((await put(`/api/admin/learners/${other.id}/role`, admin.cookie, { role: "teacher" })).statusCode).toBe(400);
  });
});

describe("course staff assignments", () => {
  it("assigns an assessor to one course: staff of that course only, listed, audited once when assigned twice", async () => {
    const assessor = await staffMember("assessor");
    const input = { userId: assessor.id, courseId: "fixture-basics", role: "assessor" };
    const first = await assign(admin.cookie, input);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ ...input, email: assessor.email, assignedBy: "chief@academy.example" });
    expect((await assign(admin.cookie, input)).statusCode).toBe(200);
    expect((await list(`?userId=${assessor.id}`)).map((a) => a.courseId)).toEqual(["fixture-basics"]);
    expect((await list("?courseId=fixture-other")).some((a) => a.userId === assessor.id)).toBe(false);
    expect(await coursesStaffedBy(db(), assessor.id, "assessor")).toEqual(["fixture-basics"]);
    expect(await coursesStaffedBy(db(), assessor.id, "instructor")).toEqual([]);
    expect(await isCourseStaff(db(), assessor.id, "fixture-basics", "assessor")).toBe(true);
    expect(await isCourseStaff(db(), assessor.id, "fixture-other", "assessor")).toBe(false);
    expect(await isCourseStaff(db(), assessor.id, "fixture-basics", "instructor")).toBe(false);
    const actions = await auditActions(assessor.email);
    expect(actions.filter((a) => a === "course-staff.assessor.assign")).toHaveLength(1);
  });

  it("counts an admin as staff of every course, from the session (ADMIN_EMAILS) and from the stored role", async () => {
    const session = (await request(t.app, "GET", "/api/auth/user", { cookie: admin.cookie })).json();
    expect(session.role).toBe("admin");
    expect(await isCourseStaff(db(), session, "fixture-other", "assessor")).toBe(true);
    expect(await isCourseStaff(db(), session, "fixture-basics", "instructor")).toBe(true);
    const stored = await signUpUser(t.app);
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", stored.id).execute();
    expect(await isCourseStaff(db(), stored.id, "fixture-other", "instructor")).toBe(true);
    expect(await isCourseStaff(db(), "no-such-user", "fixture-other", "instructor")).toBe(false);
  });

  it("refuses to assign someone without the role, an admin, or to an unknown course, writing nothing", async () => {
    const learner = await signUpUser(t.app);
    const instructor = await staffMember("instructor");
    const refused = [
      await assign(admin.cookie, { userId: learner.id, courseId: "fixture-basics", role: "assessor" }),
      await assign(admin.cookie, { userId: instructor.id, courseId: "fixture-basics", role: "assessor" }),
      await assign(admin.cookie, { userId: admin.id, courseId: "fixture-basics", role: "instructor" }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([409, 409, 409]);
    expect(refused[1]?.json().message).toBe("This account is not an assessor; grant the assessor role first.");
    const unknown = await assign(admin.cookie, {
      userId: instructor.id,
      courseId: "no-such-course",
      role: "instructor",
    });
    expect(unknown.statusCode).toBe(404);
    const badRole = await assign(admin.cookie, { userId: instructor.id, courseId: "fixture-basics", role: "admin" });
    expect(badRole.statusCode).toBe(400);
    expect(await list(`?userId=${instructor.id}`)).toEqual([]);
    expect(await list(`?userId=${learner.id}`)).toEqual([]);
  });

  it("is an admin's only: a staff member cannot assign themselves or read the list", async () => {
    const instructor = await staffMember("instructor");
    const self = await assign(instructor.cookie, {
      userId: instructor.id,
      courseId: "fixture-basics",
      role: "instructor",
    });
    expect(self.statusCode).toBe(403);
    expect((await request(t.app, "GET", "/api/admin/course-staff", { cookie: instructor.cookie })).statusCode).toBe(
      403,
    );
    expect(await isCourseStaff(db(), instructor.id, "fixture-basics", "instructor")).toBe(false);
  });

  it("unassigns (bodiless, audited), and says so when there was nothing to remove", async () => {
    const instructor = await staffMember("instructor");
    for (const courseId of ["fixture-basics", "fixture-other"])
      await assign(admin.cookie, { userId: instructor.id, courseId, role: "instructor" });
    const removed = await unassign(admin.cookie, instructor.id, "fixture-basics", "instructor");
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: true });
    expect((await unassign(admin.cookie, instructor.id, "fixture-basics", "instructor")).json()).toEqual({
      removed: false,
    });
    expect(await coursesStaffedBy(db(), instructor.id, "instructor")).toEqual(["fixture-other"]);
    expect((await auditActions(instructor.email)).filter((a) => a === "course-staff.instructor.unassign")).toHaveLength(
      1,
    );
  });

  it("takes a staff role's assignments away with the role, and a changed role keeps none of the old one's", async () => {
    const assessor = await staffMember("assessor");
    for (const courseId of ["fixture-basics", "fixture-other"])
      await assign(admin.cookie, { userId: assessor.id, courseId, role: "assessor" });
    expect(await coursesStaffedBy(db(), assessor.id, "assessor")).toHaveLength(2);
    expect(
      (await put(`/api/admin/learners/${assessor.id}/role`, admin.cookie, { role: "instructor" })).statusCode,
    ).toBe(200);
    expect(await coursesStaffedBy(db(), assessor.id, "assessor")).toEqual([]);
    expect(await isCourseStaff(db(), assessor.id, "fixture-basics", "assessor")).toBe(false);
  });

  it("a stale assignment whose role is gone does not count", async () => {
    const assessor = await staffMember("assessor");
    await assign(admin.cookie, { userId: assessor.id, courseId: "fixture-basics", role: "assessor" });
    // The role changed behind the API's back (the command line, an older build): the row alone is not enough.
    await db().updateTable("user").set({ role: "learner" }).where("id", "=", assessor.id).execute();
    expect(await isCourseStaff(db(), assessor.id, "fixture-basics", "assessor")).toBe(false);
  });
});
