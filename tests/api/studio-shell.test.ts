import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import {
  createTestApp,
  request,
  signUpStaff,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;
let instructor: TestUser;
let learner: TestUser;
const COURSE = "fixture-basics";

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  instructor = await signUpStaff(t, admin, "instructor");
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
  it("shows an instructor only the courses assigned to them, and each once assigned", async () => {
    const writer = await signUpStaff(t, admin, "instructor");
    const mine = async () =>
      ((await request(t.app, "GET", "/api/studio/courses", { cookie: writer.cookie })).json() as { id: string }[]).map(
        (c) => c.id,
      );
    expect(await mine()).toEqual([]);
    const assigned = await request(t.app, "POST", "/api/admin/course-staff", {
      cookie: admin.cookie,
      payload: { userId: writer.id, courseId: "fixture-other", role: "instructor" },
    });
    expect(assigned.statusCode).toBe(200);
    expect(await mine()).toEqual(["fixture-other"]);
    expect((await draftOf("fixture-basics", writer)).courseId).toBeUndefined();
    expect((await draftOf("fixture-other", writer)).courseId).toBe("fixture-other");
  });

  it("assigns an instructor to a course not yet published, who then writes it and sees only it", async () => {
    const writer = await signUpStaff(t, admin, "instructor");
    const created = await request(t.app, "POST", "/api/studio/courses", {
      cookie: admin.cookie,
      payload: { slug: "forest-bathing", title: "Forest Bathing" },
    });
    expect(created.statusCode).toBe(200);
    const assign = (payload: Record<string, string>) =>
      request(t.app, "POST", "/api/admin/course-staff", { cookie: admin.cookie, payload });
    const assigned = await assign({ userId: writer.id, courseId: "forest-bathing", role: "instructor" });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ courseId: "forest-bathing", courseTitle: "Forest Bathing" });
    const listed = await request(t.app, "GET", "/api/admin/course-staff?courseId=forest-bathing", {
      cookie: admin.cookie,
    });
    expect(listed.json().items).toEqual([
      expect.objectContaining({ userId: writer.id, courseTitle: "Forest Bathing" }),
    ]);
    const mine = await request(t.app, "GET", "/api/studio/courses", { cookie: writer.cookie });
    expect(mine.json()).toEqual([expect.objectContaining({ id: "forest-bathing", publishedVersion: null })]);
    const draft = await draftOf("forest-bathing", writer);
    expect(draft.document.course.title).toBe("Forest Bathing");
    const retitled = await put(
      "forest-bathing",
      "course",
      { baseRevision: draft.revision, course: { ...draft.document.course, title: "Forest Bathing Basics" } },
      writer,
    );
    expect(retitled.statusCode).toBe(200);
    expect((await draftOf(COURSE, writer)).courseId).toBeUndefined();
    // A course that is neither published nor drafted is not found; an assessor needs a published course.
    expect((await assign({ userId: writer.id, courseId: "no-such-course", role: "instructor" })).statusCode).toBe(404);
    const assessor = await signUpStaff(t, admin, "assessor");
    expect((await assign({ userId: assessor.id, courseId: "forest-bathing", role: "assessor" })).statusCode).toBe(404);
  });

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

const draftOf = async (courseId: string, user = admin) =>
  (await request(t.app, "GET", `/api/studio/courses/${courseId}/draft`, { cookie: user.cookie })).json() as Draft;
const put = (courseId: string, part: "course" | "outline", payload: unknown, user = admin) =>
  request(t.app, "PUT", `/api/studio/courses/${courseId}/draft/${part}`, { cookie: user.cookie, payload });
const withoutCourse = (document: CourseDocument) => ({ ...document, course: null });

describe("saving the settings alone", () => {
  const COURSE_ID = "fixture-other";

  it("replaces course.json and nothing else, on the revision it names; a stale one gets 409 with the draft as it is", async () => {
    const before = await draftOf(COURSE_ID);
    const course = { ...before.document.course, title: "Other, Retitled", price: 4999 };
    const saved = await put(COURSE_ID, "course", { baseRevision: before.revision, course });
    expect(saved.statusCode).toBe(200);
    const draft = saved.json() as Draft;
    expect(draft.revision).toBe(before.revision + 1);
    expect(draft.document.course).toEqual(course);
    expect(withoutCourse(draft.document)).toEqual(withoutCourse(before.document));

    const stale = await put(COURSE_ID, "course", {
      baseRevision: before.revision,
      course: { ...course, title: "Late" },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.revision).toBe(draft.revision);
    expect(stale.json().current.document.course.title).toBe("Other, Retitled");
    expect((await draftOf(COURSE_ID)).document.course.title).toBe("Other, Retitled");
  });

  it("refuses settings course.json would refuse, naming the field, and saves nothing", async () => {
    const before = await draftOf(COURSE_ID);
    for (const bad of [
      { price: -1 },
      { price: 12.5 },
      { marketplaceUrl: "http://shop.example" },
      { learningOutcomes: [] },
    ]) {
      const res = await put(COURSE_ID, "course", {
        baseRevision: before.revision,
        course: { ...before.document.course, ...bad },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/price|marketplaceUrl|learningOutcomes/);
    }
    expect((await draftOf(COURSE_ID)).revision).toBe(before.revision);
  });

  it("is refused to instructors not assigned to the course and to learners", async () => {
    const before = await draftOf(COURSE_ID);
    const payload = { baseRevision: before.revision, course: before.document.course };
    expect((await put(COURSE_ID, "course", payload, instructor)).statusCode).toBe(403);
    expect((await put(COURSE_ID, "course", payload, learner)).statusCode).toBe(403);
  });
});

describe("saving the outline alone", () => {
  const COURSE_ID = "fixture-basics";
  const outlineOf = (document: CourseDocument) =>
    document.modules.map((m) => ({
      id: m.id,
      title: String(m.module.title),
      lessons: m.lessons.map((l) => ({ id: l.id, title: String(l.meta.title) })),
    }));

  it("reorders, renames and moves lessons keeping their text, adds empty ones, removes the ones left out", async () => {
    const before = await draftOf(COURSE_ID);
    const outline = outlineOf(before.document);
    expect(outline.length).toBeGreaterThanOrEqual(2);
    const [first, second] = outline as [(typeof outline)[number], (typeof outline)[number]];
    const moved = first.lessons[0];
    const removed = first.lessons[1];
    if (!moved || !removed) throw new Error("the fixture's first module needs two lessons");
    const modules = [
      { ...second, lessons: [...second.lessons, { ...moved, title: "Moved and renamed" }] },
      { ...first, title: "First, renamed", lessons: first.lessons.slice(2) },
      { id: "new-module", title: "A new module", lessons: [{ id: "new-lesson", title: "A new lesson" }] },
    ];
    const saved = await put(COURSE_ID, "outline", { baseRevision: before.revision, modules });
    expect(saved.statusCode).toBe(200);
    const after = (saved.json() as Draft).document;
    expect(outlineOf(after)).toEqual(modules);
    const lessonBefore = before.document.modules[0]?.lessons[0];
    const lessonAfter = after.modules[0]?.lessons.at(-1);
    expect(lessonAfter?.body).toBe(lessonBefore?.body);
    expect(lessonAfter?.meta).toEqual({ ...lessonBefore?.meta, title: "Moved and renamed" });
    expect(after.modules[1]?.quiz).toEqual(before.document.modules[0]?.quiz);
    expect(after.modules[2]).toMatchObject({ quiz: null, lessons: [{ id: "new-lesson", body: "", format: "md" }] });
    expect(after.modules.flatMap((m) => m.lessons.map((l) => l.id))).not.toContain(removed.id);
    expect(after.exam).toEqual(before.document.exam);
  });

  it("refuses an outline with one id twice, and a stale one with 409", async () => {
    const before = await draftOf(COURSE_ID);
    const outline = outlineOf(before.document);
    const twice = [...outline, { id: "dup", title: "Dup", lessons: [outline[0]?.lessons[0]] }];
    const res = await put(COURSE_ID, "outline", { baseRevision: before.revision, modules: twice });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Two lessons have the id/);
    expect((await put(COURSE_ID, "outline", { baseRevision: before.revision, modules: outline })).statusCode).toBe(200);
    expect((await put(COURSE_ID, "outline", { baseRevision: before.revision, modules: outline })).statusCode).toBe(409);
  });
});

describe("the versions list", () => {
  it("names each version's author, and none for a version imported from the files", async () => {
    const COURSE_ID = "fixture-soon";
    const before = await draftOf(COURSE_ID);
    const course = { ...before.document.course, description: "Soon, with a new description." };
    const saved = await put(COURSE_ID, "course", { baseRevision: before.revision, course });
    expect(saved.statusCode).toBe(200);
    const published = await request(t.app, "POST", `/api/studio/courses/${COURSE_ID}/publish`, {
      cookie: admin.cookie,
      payload: { kind: "minor", note: "New description", baseRevision: (saved.json() as Draft).revision },
    });
    expect(published.statusCode).toBe(200);
    const list = await request(t.app, "GET", `/api/studio/courses/${COURSE_ID}/versions`, { cookie: admin.cookie });
    const versions = list.json() as { version: number; author: string | null; note: string }[];
    expect(versions[0]?.author).toBeNull();
    expect(versions.at(-1)).toMatchObject({ note: "New description", author: "Test Learner (owner@academy.example)" });
  });
});
