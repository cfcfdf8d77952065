import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCourseDocument } from "#server/content/course-document.ts";
import type { CourseDocument, Draft } from "#shared/schemas/studio.ts";
import {
  createTestApp,
  enrol,
  PRACTICAL_FIXTURE_CONTENT,
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
let stranger: TestUser;
let learner: TestUser;
let assessor: TestUser;
const db = () => t.testDb.database.db;
const COURSE = "fixture-basics";
const studio = (path = "") => `/api/studio/courses/${COURSE}${path}`;
const getDraft = async (user: TestUser) =>
  (await request(t.app, "GET", studio("/draft"), { cookie: user.cookie })).json() as Draft;
const putDraft = (user: TestUser, baseRevision: number, document: CourseDocument) =>
  request(t.app, "PUT", studio("/draft"), { cookie: user.cookie, payload: { baseRevision, document } });
const publish = (user: TestUser, payload: { kind: string; note: string; baseRevision: number }) =>
  request(t.app, "POST", studio("/publish"), { cookie: user.cookie, payload });
const lessonOf = (document: CourseDocument, moduleId: string, index = 0) => {
  const lesson = document.modules.find((m) => m.id === moduleId)?.lessons[index];
  if (!lesson) throw new Error(`no lesson ${index} in ${moduleId}`);
  return lesson;
};
type Question = { id: string; correctAnswer: string; options: { id: string }[] };
const questionsOf = (document: CourseDocument, moduleId: string) =>
  document.modules.find((m) => m.id === moduleId)?.quiz?.questions as Question[];

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "owner@academy.example" } });
  admin = await signUpUser(t.app, { email: "owner@academy.example" });
  await verifyEmail(t, admin);
  instructor = await signUpStaff(t, admin, "instructor");
  stranger = await signUpStaff(t, admin, "instructor");
  assessor = await signUpStaff(t, admin, "assessor");
  learner = await signUpUser(t.app);
  await enrol(t, learner, COURSE);
  const assigned = await request(t.app, "POST", "/api/admin/course-staff", {
    cookie: admin.cookie,
    payload: { userId: instructor.id, courseId: COURSE, role: "instructor" },
  });
  expect(assigned.statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe("who may use the studio", () => {
  it("refuses visitors (401), learners, assessors and unassigned instructors (403) on every route", async () => {
    const routes: [method: "GET" | "PUT" | "POST", url: string, payload?: unknown][] = [
      ["GET", "/api/studio/courses"],
      ["GET", studio("/draft")],
      [
        "PUT",
        studio("/draft"),
        { baseRevision: 0, document: { course: {}, modules: [], exam: null, practical: null, media: [] } },
      ],
      ["POST", studio("/publish"), { kind: "minor", note: "n", baseRevision: 1 }],
      ["GET", studio("/versions")],
      ["GET", studio("/versions/1")],
      ["POST", studio("/versions/1/republish")],
    ];
    for (const [method, url, payload] of routes) {
      expect((await request(t.app, method, url, { payload })).statusCode, `${method} ${url}`).toBe(401);
      for (const user of [learner, assessor])
        expect(
          (await request(t.app, method, url, { cookie: user.cookie, payload })).statusCode,
          `${method} ${url}`,
        ).toBe(403);
      if (url !== "/api/studio/courses")
        expect(
          (await request(t.app, method, url, { cookie: stranger.cookie, payload })).statusCode,
          `${method} ${url}`,
        ).toBe(403);
    }
    const mine = await request(t.app, "GET", "/api/studio/courses", { cookie: instructor.cookie });
    expect(mine.json()).toEqual([expect.objectContaining({ id: COURSE, title: "Fixture Basics" })]);
    expect((await request(t.app, "GET", "/api/studio/courses", { cookie: stranger.cookie })).json()).toEqual([]);
    const all = await request(t.app, "GET", "/api/studio/courses", { cookie: admin.cookie });
    expect(all.json().map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining(["fixture-basics", "fixture-other", "fixture-soon"]),
    );
  });

  it("lets only admins start a course, from a slug and a title, once", async () => {
    const input = { slug: "breathing-basics", title: "Breathing Basics" };
    expect(
      (await request(t.app, "POST", "/api/studio/courses", { cookie: instructor.cookie, payload: input })).statusCode,
    ).toBe(403);
    const created = await request(t.app, "POST", "/api/studio/courses", { cookie: admin.cookie, payload: input });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ courseId: "breathing-basics", revision: 1, baseVersion: null });
    expect(
      (await request(t.app, "POST", "/api/studio/courses", { cookie: admin.cookie, payload: input })).statusCode,
    ).toBe(409);
    const taken = { slug: COURSE, title: "Again" };
    expect(
      (await request(t.app, "POST", "/api/studio/courses", { cookie: admin.cookie, payload: taken })).statusCode,
    ).toBe(409);
    // Not offered until published.
    expect((await request(t.app, "GET", "/api/courses/breathing-basics")).statusCode).toBe(404);
  });
});

describe("drafts and publishing", () => {
  it("edits, publishes minor (served at once), refuses stale writes, a re-keyed minor, failed checks; then major, retry and rollback", async () => {
    // A certificate earned on version 1.
    const now = new Date().toISOString();
    await db()
      .insertInto("certificate")
      .values({
        id: "cert-on-v1",
        certificateId: "AC-V1-0001",
        userId: learner.id,
        courseId: COURSE,
        firstName: "Test",
        lastName: "Learner",
        completedAt: now,
        expiresAt: "2099-01-01T00:00:00.000Z",
        issuedAt: now,
        revokedAt: null,
        revokedReason: null,
        courseVersion: 1,
      })
      .execute();
    const v1 = await db()
      .selectFrom("courseVersion")
      .select("publishedAt")
      .where("courseId", "=", COURSE)
      .where("version", "=", 1)
      .executeTakeFirstOrThrow();

    // The draft starts from version 1.
    const start = await getDraft(instructor);
    expect(start).toMatchObject({ revision: 0, baseVersion: 1, problems: [] });

    // A wording change.
    const doc = structuredClone(start.document);
    lessonOf(doc, "alpha").body = lessonOf(doc, "alpha").body.replace("This is the body", "This is the revised body");
    const saved = await putDraft(instructor, 0, doc);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ revision: 1, problems: [] });

    // Someone else's write from the same start is stale: 409 with the draft as it is now.
    const stale = await putDraft(admin, 0, start.document);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.revision).toBe(1);
    expect(lessonOf(stale.json().current.document, "alpha").body).toContain("revised body");

    expect((await publish(instructor, { kind: "minor", note: "Typo", baseRevision: 0 })).statusCode).toBe(409);
    const minor = await publish(instructor, { kind: "minor", note: "Clearer wording in lesson one", baseRevision: 1 });
    expect(minor.statusCode).toBe(200);
    expect(minor.json()).toMatchObject({ version: 2, kind: "minor", line: 1, note: "Clearer wording in lesson one" });
    const page = (await request(t.app, "GET", `/api/courses/${COURSE}`)).json();
    expect(page).toMatchObject({ version: 2, update: { note: "Clearer wording in lesson one" } });
    expect(page.update.publishedAt).toBe(minor.json().publishedAt);
    const lesson = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: learner.cookie });
    expect(lesson.json().html).toContain("revised body");

    // Re-keying a question is not minor.
    const rekeyed = structuredClone(doc);
    const [first] = questionsOf(rekeyed, "alpha");
    if (!first) throw new Error("no question");
    first.correctAnswer = first.options.find((o) => o.id !== first.correctAnswer)?.id ?? "a";
    expect((await putDraft(instructor, 1, rekeyed)).statusCode).toBe(200);
    const notMinor = await publish(instructor, { kind: "minor", note: "Re-keyed", baseRevision: 2 });
    expect(notMinor.statusCode).toBe(409);
    expect(notMinor.json().message).toMatch(/not minor/);

    // A bank too small for its draw fails a check: saved with its problem, refused at publish (422).
    const small = structuredClone(rekeyed);
    const bank = questionsOf(small, "alpha");
    bank.splice(3);
    const smallSaved = await putDraft(instructor, 2, small);
    expect(smallSaved.json().problems).toEqual([
      expect.stringMatching(/01-alpha\/quiz\.json: questions: the bank holds 3 questions/),
    ]);
    const refused = await publish(instructor, { kind: "major", note: "Smaller bank", baseRevision: 3 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().problems).toEqual(smallSaved.json().problems);
    expect(
      (await db().selectFrom("courseVersion").select("version").where("courseId", "=", COURSE).execute()).length,
    ).toBe(2);

    // Major, and a retried request publishes once.
    expect((await putDraft(instructor, 3, rekeyed)).statusCode).toBe(200);
    const major = await publish(instructor, { kind: "major", note: "Question one re-keyed", baseRevision: 4 });
    expect(major.statusCode).toBe(200);
    expect(major.json()).toMatchObject({
      version: 3,
      kind: "major",
      line: 3,
      changes: { assessmentsChanged: ["alpha"] },
    });
    const retried = await publish(instructor, { kind: "major", note: "Question one re-keyed", baseRevision: 4 });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().version).toBe(3);
    expect((await publish(instructor, { kind: "major", note: "Again", baseRevision: 4 })).json().version).toBe(3);

    // Rollback: admins only, a new version with version 1's content.
    expect(
      (await request(t.app, "POST", studio("/versions/1/republish"), { cookie: instructor.cookie })).statusCode,
    ).toBe(403);
    const rollback = await request(t.app, "POST", studio("/versions/1/republish"), { cookie: admin.cookie });
    expect(rollback.statusCode).toBe(200);
    expect(rollback.json()).toMatchObject({ version: 4, kind: "major", note: "Version 1 published again." });
    const back = await request(t.app, "GET", `/api/courses/${COURSE}/lessons/alpha-one`, { cookie: learner.cookie });
    expect(back.json().html).toContain("This is the body");

    const versions = await request(t.app, "GET", studio("/versions"), { cookie: instructor.cookie });
    expect(versions.json().map((v: { version: number; kind: string }) => [v.version, v.kind])).toEqual([
      [1, "major"],
      [2, "minor"],
      [3, "major"],
      [4, "major"],
    ]);
    const two = await request(t.app, "GET", studio("/versions/2"), { cookie: instructor.cookie });
    expect(lessonOf(two.json().document, "alpha").body).toContain("revised body");
    expect((await request(t.app, "GET", studio("/versions/9"), { cookie: instructor.cookie })).statusCode).toBe(404);

    // The certificate still cites version 1 after versions 2, 3 and 4.
    const verified = await request(t.app, "GET", "/api/verify/AC-V1-0001");
    expect(verified.json().courseVersion).toMatchObject({ version: 1, publishedAt: v1.publishedAt });

    const audit = await db()
      .selectFrom("auditLog")
      .select(["action", "actorId", "details"])
      .where("target", "=", COURSE)
      .orderBy("createdAt")
      .execute();
    expect(audit.map((a) => [a.action, a.actorId, JSON.parse(a.details).version])).toEqual([
      ["course.publish", instructor.id, 2],
      ["course.publish", instructor.id, 3],
      ["course.republish", admin.id, 4],
    ]);
  });
});

describe("publishing a practical's rubric", () => {
  // An app of its own: these drafts must not move the revisions the tests above start from.
  let own: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    own = await createTestApp({ env: { ADMIN_EMAILS: "rubric-owner@academy.example" } });
    owner = await signUpUser(own.app, { email: "rubric-owner@academy.example" });
    await verifyEmail(own, owner);
  });
  afterAll(async () => own?.close());
  const ownDraft = async () =>
    (await request(own.app, "GET", studio("/draft"), { cookie: owner.cookie })).json() as Draft;
  const ownPut = (baseRevision: number, document: CourseDocument) =>
    request(own.app, "PUT", studio("/draft"), { cookie: owner.cookie, payload: { baseRevision, document } });
  const ownPublish = (payload: { kind: string; note: string; baseRevision: number }) =>
    request(own.app, "POST", studio("/publish"), { cookie: owner.cookie, payload });

  it("refuses a pass rule that contradicts the labels (all Competent failing, a critical criterion with nothing under Competent) one point from the line, and publishes the rule the labels say", async () => {
    const { document: withPractical } = readCourseDocument(`${PRACTICAL_FIXTURE_CONTENT}/fixture-practical`);
    const practical = withPractical.practical;
    if (!practical) throw new Error("the fixture has no practical");
    const start = await ownDraft();
    const draftWith = (meta: Record<string, unknown>) => ({
      ...structuredClone(start.document),
      practical: { ...structuredClone(practical), meta: { ...structuredClone(practical.meta), ...meta } },
    });
    const refusedWith = async (meta: Record<string, unknown>) => {
      const revision = (await ownDraft()).revision;
      const saved = await ownPut(revision, draftWith(meta));
      expect(saved.statusCode, saved.body).toBe(200);
      const refused = await ownPublish({ kind: "major", note: "Pass rule", baseRevision: revision + 1 });
      expect(refused.statusCode).toBe(422);
      return (refused.json().problems as string[]).join("\n");
    };
    type Criterion = { id: string; levels: { points: number; label: string; descriptor: string }[] };
    const criteriaWith = (change: (criteria: Criterion[]) => void) => {
      const criteria = structuredClone(practical.meta.criteria) as Criterion[];
      change(criteria);
      return criteria;
    };
    const listeningWithStrong = criteriaWith((criteria) =>
      criteria
        .find((c) => c.id === "listening")
        ?.levels.push({ points: 6, label: "Strong", descriptor: "Complex reflections that draw out change talk." }),
    );
    // Competent on both criteria is 10 of 12 points (83.3%): a rule asking 84% fails it, one asking 83% does not.
    expect(
      await refusedWith({ criteria: listeningWithStrong, passRule: { minimumLevel: "Competent", minPercent: 84 } }),
    ).toMatch(
      /practical\.md: passRule: refused: a submission rated Competent on every criterion \(10 of 12 points\) fails/,
    );
    const atTheLine = await ownPut(
      (await ownDraft()).revision,
      draftWith({
        criteria: listeningWithStrong,
        passRule: { minimumLevel: "Competent", minPercent: 83 },
      }),
    );
    expect(atTheLine.json().problems).toEqual([]);
    // A critical criterion with nothing under Competent would pass at its lowest level.
    const noFloor = criteriaWith((criteria) => {
      const scope = criteria.find((c) => c.id === "scope");
      if (!scope) throw new Error("the fixture's scope criterion");
      scope.levels = scope.levels.map((l, i) => ({ ...l, label: ["Competent", "Developing", "Strong"][i] ?? l.label }));
    });
    expect(await refusedWith({ criteria: noFloor })).toMatch(
      /practical\.md: passRule: refused: critical criterion 'scope' has no level below 'Competent'/,
    );
    // Refused publications left no version behind.
    const versions = () =>
      own.testDb.database.db.selectFrom("courseVersion").select("version").where("courseId", "=", COURSE).execute();
    expect(await versions()).toHaveLength(1);

    // As the labels say: every criterion at least Competent, the critical one too, no share of points.
    const revision = (await ownDraft()).revision;
    expect((await ownPut(revision, draftWith({}))).json().problems).toEqual([]);
    const published = await ownPublish({ kind: "major", note: "A practical", baseRevision: revision + 1 });
    expect(published.statusCode, published.body).toBe(200);
    expect(await versions()).toHaveLength(2);
  });
});
