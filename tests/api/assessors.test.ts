import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactAgreement, weightedKappa } from "#server/modules/practical/agreement.ts";
import {
  type AgreementReport,
  ASSESSED_BY_TEXT,
  type CalibrationExemplar,
  type CalibrationOverview,
  type LearnerPractical,
  type ReviewQueue,
  type ReviewSubmission,
} from "#shared/schemas/practical.ts";
import type { CourseStaff } from "#shared/schemas/staff.ts";
import { completeCourse } from "../setup/assessments.ts";
import {
  COACH_QUALIFICATIONS,
  CONFIRMATIONS,
  fixtureExemplars,
  mailSubjectsTo,
  makeLiveAssessor,
  SAMPLE_FILES,
  submitPractical,
} from "../setup/practical.ts";
import {
  createTestApp,
  enrol,
  request,
  signUpUser,
  type TestApp,
  type TestUser,
  verifyEmail,
} from "../setup/test-app.ts";

const COURSE = "fixture-practical";
let t: TestApp;
let admin: TestUser;
const db = () => t.testDb.database.db;
const get = (url: string, cookie?: string) => request(t.app, "GET", url, { cookie });
const post = (url: string, cookie: string | undefined, payload: unknown = {}) =>
  request(t.app, "POST", url, { cookie, payload });
const put = (url: string, cookie: string | undefined, payload: unknown) =>
  request(t.app, "PUT", url, { cookie, payload });

/** An MP4 video's first bytes (an ftyp box of brand isom), as a phone records it. */
const MP4 = Buffer.concat([
  Buffer.from("00000018667479706973736f000002006973736f6d703431", "hex").subarray(0, 24),
  Buffer.alloc(400),
]);
MP4.write("ftypisom", 4, "latin1");
MP4.write("isom", 16, "latin1");

const PASSING = [
  { criterionId: "listening", points: 4, comment: "Frequent, accurate reflections." },
  { criterionId: "scope", points: 6, comment: "In scope, referred clearly." },
];
const WEAK = [
  { criterionId: "listening", points: 2, comment: "Some reflections." },
  { criterionId: "scope", points: 3, comment: "Mostly in scope." },
];
const scores = (listening: number, scope: number) => [
  { criterionId: "listening", points: listening, comment: "Listening noted." },
  { criterionId: "scope", points: scope, comment: "Scope noted." },
];

async function assessor(name: string) {
  const user = await signUpUser(t.app, { firstName: name, lastName: "Assessor" });
  expect((await put(`/api/admin/learners/${user.id}/role`, admin.cookie, { role: "assessor" })).statusCode).toBe(200);
  return user;
}
async function liveAssessor(name: string) {
  const user = await assessor(name);
  await makeLiveAssessor(t.app, admin.cookie, user);
  return user;
}

async function submission(name: string) {
  const user = await signUpUser(t.app, { firstName: name, lastName: "Learner" });
  await enrol(t, user, COURSE);
  await completeCourse(t.app, user.cookie, COURSE);
  const res = await submitPractical(t.app, user.cookie, COURSE, { text: "My session notes.", ...CONFIRMATIONS }, [
    { name: "session.mp3", data: SAMPLE_FILES.mp3 },
  ]);
  expect(res.statusCode, res.body).toBe(200);
  return { user, number: (res.json() as LearnerPractical).submissions.at(-1)?.number ?? 0 };
}

async function mark(who: TestUser, number: number, decision: "pass" | "resubmit", given = PASSING) {
  const claimed = await post(`/api/review/submissions/${number}/claim`, who.cookie);
  expect(claimed.statusCode, claimed.body).toBe(200);
  const res = await post(`/api/review/submissions/${number}/review`, who.cookie, {
    scores: given,
    feedback: `Feedback from ${who.email}.`,
    decision,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReviewSubmission;
}

/** The practical's result mails a learner has been sent. */
const resultMails = async (email: string) =>
  (await mailSubjectsTo(t, email)).filter((subject) => /practical/i.test(subject));
const queueOf = async (who: TestUser) => ((await get("/api/review/queue", who.cookie)).json() as ReviewQueue).items;

beforeAll(async () => {
  t = await createTestApp({
    practical: true,
    // Every first mark is drawn for a blind second mark here (the default share is 10%).
    env: { ADMIN_EMAILS: "chief@academy.example", PRACTICAL_DOUBLE_MARK_SHARE: "1" },
  });
  admin = await signUpUser(t.app, { email: "chief@academy.example" });
  await verifyEmail(t, admin);
});
afterAll(async () => t?.close());

describe("the submission", () => {
  it("asks for the learner's red-flag confirmation, checked by the server", async () => {
    const user = await signUpUser(t.app);
    await enrol(t, user, COURSE);
    await completeCourse(t.app, user.cookie, COURSE);
    const files = [{ name: "session.mp3", data: SAMPLE_FILES.mp3 }];
    const unconfirmed = await submitPractical(t.app, user.cookie, COURSE, { text: "Notes", consent: "yes" }, files);
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().message).toMatch(/no real red flag came up in this session/);
    const wrong = await submitPractical(
      t.app,
      user.cookie,
      COURSE,
      { text: "Notes", consent: "yes", redFlag: "no" },
      files,
    );
    expect(wrong.statusCode).toBe(400);
    const ok = await submitPractical(t.app, user.cookie, COURSE, { text: "Notes", ...CONFIRMATIONS }, files);
    expect(ok.statusCode, ok.body).toBe(200);
    const row = await db()
      .selectFrom("practicalSubmission")
      .select("redFlagConfirmedAt")
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.redFlagConfirmedAt).not.toBeNull();
    const page = (ok.json() as LearnerPractical).rubric;
    expect(page.redFlagSteps).toMatch(/stop the exercise/);
    expect(page.evidence).toBe("recording");
  });

  it("requires an audio or video recording of the session where the criteria score a conversation; a transcript goes beside it", async () => {
    const user = await signUpUser(t.app);
    await enrol(t, user, COURSE);
    await completeCourse(t.app, user.cookie, COURSE);
    const transcriptOnly = await submitPractical(t.app, user.cookie, COURSE, { text: "Notes", ...CONFIRMATIONS }, [
      { name: "transcript.txt", data: SAMPLE_FILES.text },
      { name: "notes.pdf", data: SAMPLE_FILES.pdf },
    ]);
    expect(transcriptOnly.statusCode).toBe(400);
    expect(transcriptOnly.json().message).toMatch(/Attach the audio or video recording of the session/);
    const textOnly = await submitPractical(t.app, user.cookie, COURSE, { text: "Coach: hello", ...CONFIRMATIONS });
    expect(textOnly.statusCode).toBe(400);
    const video = await submitPractical(t.app, user.cookie, COURSE, { text: "Notes", ...CONFIRMATIONS }, [
      { name: "session.mp4", data: MP4 },
      { name: "transcript.txt", data: SAMPLE_FILES.text },
    ]);
    expect(video.statusCode, video.body).toBe(200);
    expect((video.json() as LearnerPractical).submissions[0]?.files.map((f) => f.contentType)).toEqual([
      "video/mp4",
      "text/plain",
    ]);
  });
});

describe("who may assess", () => {
  it("records an assessor's qualifications, and assigns a coaching practical only with coaching training on record", async () => {
    const a = await assessor("Quinn");
    const assign = () =>
      post("/api/admin/course-staff", admin.cookie, { userId: a.id, courseId: COURSE, role: "assessor" });
    const none = await assign();
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toMatch(/has not recorded their qualifications/);
    const missing = await put("/api/review/profile", a.cookie, { ...COACH_QUALIFICATIONS, credentialNumber: " " });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/credential's number/);
    expect(
      (await put("/api/review/profile", a.cookie, { ...COACH_QUALIFICATIONS, coachingTraining: null })).statusCode,
    ).toBe(200);
    const untrained = await assign();
    expect(untrained.statusCode).toBe(409);
    expect(untrained.json().message).toMatch(/must record their coaching training/);
    // A course whose practical is written work only (none here has a practical) needs no coaching training.
    expect(
      (
        await post("/api/admin/course-staff", admin.cookie, {
          userId: a.id,
          courseId: "fixture-basics",
          role: "assessor",
        })
      ).statusCode,
    ).toBe(200);
    expect((await put("/api/review/profile", a.cookie, COACH_QUALIFICATIONS)).statusCode).toBe(200);
    expect((await assign()).statusCode).toBe(200);
    const listed = (await get(`/api/admin/course-staff?userId=${a.id}`, admin.cookie)).json().items as CourseStaff[];
    expect(listed.find((r) => r.courseId === COURSE)?.qualifications).toEqual(COACH_QUALIFICATIONS);
    const learner = await signUpUser(t.app);
    expect((await put("/api/review/profile", learner.cookie, COACH_QUALIFICATIONS)).statusCode).toBe(403);
    expect((await get("/api/review/profile")).statusCode).toBe(401);
  });

  it("shows a course's queue, submissions and files only to assessors assigned to it and calibrated", async () => {
    const { number } = await submission("Gated");
    const unassigned = await assessor("Una");
    await put("/api/review/profile", unassigned.cookie, COACH_QUALIFICATIONS);
    await post("/api/admin/course-staff", admin.cookie, {
      userId: unassigned.id,
      courseId: "fixture-basics",
      role: "assessor",
    });
    expect(await queueOf(unassigned)).toEqual([]);
    const refused = await post(`/api/review/submissions/${number}/claim`, unassigned.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only assessors assigned to this course may review its submissions.");
    const file = (
      await db().selectFrom("practicalFile").select("id").where("submissionId", "=", number).executeTakeFirstOrThrow()
    ).id;
    expect((await get(`/api/practical-files/${file}`, unassigned.cookie)).statusCode).toBe(403);

    // Assigned, not yet calibrated: still no live work.
    expect(
      (
        await post("/api/admin/course-staff", admin.cookie, {
          userId: unassigned.id,
          courseId: COURSE,
          role: "assessor",
        })
      ).statusCode,
    ).toBe(200);
    expect(await queueOf(unassigned)).toEqual([]);
    const uncalibrated = await get(`/api/review/submissions/${number}`, unassigned.cookie);
    expect(uncalibrated.statusCode).toBe(403);
    expect(uncalibrated.json().message).toMatch(/Score this practical's calibration exemplars first/);

    const live = await liveAssessor("Lia");
    expect((await queueOf(live)).map((i) => i.number)).toContain(number);
    expect((await get(`/api/practical-files/${file}`, live.cookie)).statusCode).toBe(200);
    // An admin sees every course's queue.
    expect((await queueOf(admin)).map((i) => i.number)).toContain(number);
  });
});

describe("an assessor's own data", () => {
  it("puts their qualifications, assignments, calibration and marks in their export; erasure removes all but the marks they gave others", async () => {
    const { number } = await submission("Exported");
    const a = await liveAssessor("Ezra");
    await mark(a, number, "pass");
    const exported = await get("/api/account/export", a.cookie);
    expect(exported.statusCode).toBe(200);
    const mine = exported.json().assessor;
    expect(mine.profile).toMatchObject(COACH_QUALIFICATIONS);
    expect(mine.courses.map((c: { courseId: string }) => c.courseId)).toContain(COURSE);
    expect(mine.calibration.length).toBeGreaterThanOrEqual(fixtureExemplars().length);
    expect(mine.marksGiven).toEqual([expect.objectContaining({ submissionId: number, round: 1, decision: "pass" })]);
    // The learner's name is not the assessor's data.
    expect(exported.body).not.toContain("Exported");

    expect((await post("/api/account/delete", a.cookie, { password: a.password })).statusCode).toBe(200);
    for (const table of ["assessorProfile", "courseStaff", "assessorCalibration"] as const)
      expect(await db().selectFrom(table).select("userId").where("userId", "=", a.id).execute()).toEqual([]);
    // The mark stays in the agreement sample, under the erased account's empty name.
    expect(
      await db().selectFrom("practicalMark").select("round").where("assessorId", "=", a.id).execute(),
    ).toHaveLength(1);
    const shell = await db()
      .selectFrom("user")
      .select(["firstName", "email"])
      .where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    expect(shell).toEqual({ firstName: "", email: `deleted-${a.id}@deleted.invalid` });
  });
});

describe("calibration", () => {
  const exemplars = fixtureExemplars();
  const scoreExemplar = (
    who: TestUser,
    id: string,
    given: { criterionId: string; points: number }[],
    decision: "pass" | "resubmit",
  ) =>
    post(`/api/review/calibration/${COURSE}/${id}`, who.cookie, {
      scores: given.map((s) => ({ ...s, comment: "Scored." })),
      feedback: "Calibration.",
      decision,
    });
  const calibrated = async (who: TestUser) =>
    ((await get("/api/review/calibration", who.cookie)).json() as CalibrationOverview).courses.find(
      (c) => c.courseId === COURSE,
    )?.calibrated;

  async function assigned(name: string) {
    const a = await assessor(name);
    await put("/api/review/profile", a.cookie, COACH_QUALIFICATIONS);
    await post("/api/admin/course-staff", admin.cookie, { userId: a.id, courseId: COURSE, role: "assessor" });
    return a;
  }

  it("ships at least three exemplars spanning fail, borderline and strong, agreed scores shown only once scored", async () => {
    expect(exemplars.map((e) => e.band)).toEqual(["fail", "borderline", "strong"]);
    const a = await assigned("Cal");
    const overview = (await get("/api/review/calibration", a.cookie)).json() as CalibrationOverview;
    const course = overview.courses.find((c) => c.courseId === COURSE);
    expect(course).toMatchObject({ calibrated: false, calibratedUntil: null });
    expect(course?.assessorRequirements).toMatch(/motivational interviewing/);
    expect(course?.exemplars.map((e) => e.result)).toEqual([null, null, null]);
    const first = exemplars[0]!;
    const before = (await get(`/api/review/calibration/${COURSE}/${first.id}`, a.cookie)).json() as CalibrationExemplar;
    expect(before.result).toBeNull();
    expect(JSON.stringify(before)).not.toContain(first.rationale);
    const after = (await scoreExemplar(a, first.id, first.scores, first.decision)).json() as CalibrationExemplar;
    expect(after.result).toMatchObject({ withinOne: true, rationale: first.rationale, band: "fail" });
    const stranger = await assessor("Stranger");
    expect((await get(`/api/review/calibration/${COURSE}/${first.id}`, stranger.cookie)).statusCode).toBe(403);
    expect((await get(`/api/review/calibration/${COURSE}/no-such`, a.cookie)).statusCode).toBe(404);
  });

  it("opens the live queue when every criterion of every exemplar is within one level of the agreed score, not two", async () => {
    const a = await assigned("Within");
    const { number } = await submission("Calibrated");
    // One level off on every criterion of every exemplar: within one.
    for (const e of exemplars) {
      const shifted = e.scores.map((s) => ({
        ...s,
        points:
          s.points === 0
            ? s.criterionId === "scope"
              ? 3
              : 2
            : s.criterionId === "scope"
              ? s.points - 3
              : s.points - 2,
      }));
      expect((await scoreExemplar(a, e.id, shifted, "resubmit")).statusCode).toBe(200);
    }
    expect(await calibrated(a)).toBe(true);
    expect((await queueOf(a)).map((i) => i.number)).toContain(number);

    // Two levels off on one criterion of one exemplar (its latest score counts): the live queue closes.
    const strong = exemplars[2]!;
    const twoOff = strong.scores.map((s) => (s.criterionId === "scope" ? { ...s, points: 0 } : s));
    const res = (await scoreExemplar(a, strong.id, twoOff, "resubmit")).json() as CalibrationExemplar;
    expect(res.result?.withinOne).toBe(false);
    expect(res.result?.criteria.find((c) => c.criterionId === "scope")).toEqual({
      criterionId: "scope",
      mine: 0,
      agreed: 6,
      withinOne: false,
    });
    expect(await calibrated(a)).toBe(false);
    expect(await queueOf(a)).toEqual([]);
    expect((await post(`/api/review/submissions/${number}/claim`, a.cookie)).statusCode).toBe(403);
  });

  it("runs out a year after the oldest score, and starts again when the rubric changes", async () => {
    const a = await liveAssessor("Yearly");
    expect(await calibrated(a)).toBe(true);
    const age = (ms: number) =>
      db()
        .updateTable("assessorCalibration")
        .set({ scoredAt: new Date(Date.now() - ms).toISOString() })
        .where("userId", "=", a.id)
        .execute();
    const YEAR = 365 * 24 * 3_600_000;
    await age(YEAR - 60_000);
    expect(await calibrated(a)).toBe(true);
    await age(YEAR + 60_000);
    expect(await calibrated(a)).toBe(false);
    await age(0);
    expect(await calibrated(a)).toBe(true);
    // Scores given under an earlier rubric (another hash) do not count.
    await db()
      .updateTable("assessorCalibration")
      .set({ rubricHash: "an-earlier-rubric" })
      .where("userId", "=", a.id)
      .execute();
    expect(await calibrated(a)).toBe(false);
  });
});

describe("double marking", () => {
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  beforeAll(async () => {
    a = await liveAssessor("Ada");
    b = await liveAssessor("Bea");
    c = await liveAssessor("Cy");
  });

  it("has a drawn submission marked blind by a second assessor; when they agree within one level the first mark is the one result", async () => {
    const { user, number } = await submission("Agreed");
    const first = await mark(a, number, "resubmit", WEAK);
    expect(first).toMatchObject({ stage: "second", review: null, status: "submitted" });
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json()).toMatchObject({ state: "waiting" });
    expect(await resultMails(user.email)).toEqual([]);
    // The first marker does not see it again; the second sees nothing of the first mark.
    expect((await queueOf(a)).map((i) => i.number)).not.toContain(number);
    expect((await post(`/api/review/submissions/${number}/claim`, a.cookie)).statusCode).toBe(403);
    const item = (await queueOf(b)).find((i) => i.number === number);
    expect(item).toMatchObject({ stage: "second", status: "submitted" });
    const blind = await get(`/api/review/submissions/${number}`, b.cookie);
    expect(blind.body).not.toContain(`Feedback from ${a.email}`);
    expect((blind.json() as ReviewSubmission).marks).toEqual([]);
    // Listening one level lower (Not shown against Developing): within one level, and the same decision.
    const second = await mark(b, number, "resubmit", scores(0, 3));
    expect(second.review).toMatchObject({ decision: "resubmit", feedback: `Feedback from ${a.email}.`, scores: WEAK });
    const mine = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
    expect(mine.submissions).toHaveLength(1);
    expect(mine.submissions[0]?.review).toMatchObject({ decision: "resubmit", feedback: `Feedback from ${a.email}.` });
    expect(await resultMails(user.email)).toEqual(["Please resubmit your practical: Fixture Practical"]);
  });

  it("sends marks two levels apart on a criterion to a third assessor, who sees both and decides", async () => {
    const { user, number } = await submission("Apart");
    await mark(a, number, "resubmit", scores(0, 3));
    // Same decision, listening Not shown against Competent: two levels apart.
    const second = await mark(b, number, "resubmit", scores(4, 3));
    expect(second).toMatchObject({ stage: "third", review: null });
    expect((await queueOf(a)).map((i) => i.number)).not.toContain(number);
    expect((await queueOf(b)).map((i) => i.number)).not.toContain(number);
    expect((await post(`/api/review/submissions/${number}/claim`, b.cookie)).statusCode).toBe(403);
    expect((await queueOf(c)).find((i) => i.number === number)).toMatchObject({ stage: "third" });
    const deciding = (await get(`/api/review/submissions/${number}`, c.cookie)).json() as ReviewSubmission;
    expect(deciding.marks.map((m) => [m.round, m.scores[0]?.points])).toEqual([
      [1, 0],
      [2, 4],
    ]);
    const third = await mark(c, number, "resubmit", scores(2, 3));
    expect(third.review).toMatchObject({ decision: "resubmit", feedback: `Feedback from ${c.email}.` });
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json().submissions[0].review).toMatchObject({
      feedback: `Feedback from ${c.email}.`,
    });
    expect(await resultMails(user.email)).toHaveLength(1);
  });

  it("sends a disagreement on the decision to a third, or an admin, whose mark is the learner's one result", async () => {
    const { user, number } = await submission("Split");
    await mark(a, number, "resubmit", WEAK);
    const second = await mark(b, number, "pass", PASSING);
    expect(second.stage).toBe("third");
    const decided = await mark(admin, number, "pass", PASSING);
    expect(decided.review).toMatchObject({ decision: "pass", feedback: `Feedback from ${admin.email}.` });
    const practical = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
    expect(practical.state).toBe("passed");
    expect(practical.submissions.map((s) => s.review?.decision)).toEqual(["pass"]);
    expect(await resultMails(user.email)).toEqual(["Practical assessment passed: Fixture Practical"]);
    // The certificate and its public verify page say how it was assessed, never by whom.
    const issued = await post("/api/certificate", user.cookie, { courseId: COURSE });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().assessmentStatement).toBe(ASSESSED_BY_TEXT);
    const verified = await get(`/api/verify/${issued.json().certificateId}`);
    expect(verified.json().assessmentStatement).toBe(ASSESSED_BY_TEXT);
    for (const who of [a, b, admin]) expect(verified.body).not.toContain(who.email);
    const marks = await db()
      .selectFrom("practicalMark")
      .select(["round", "decision"])
      .where("submissionId", "=", number)
      .orderBy("round")
      .execute();
    expect(marks).toEqual([
      { round: 1, decision: "resubmit" },
      { round: 2, decision: "pass" },
      { round: 3, decision: "pass" },
    ]);
  });
});

describe("agreement statistics", () => {
  it("computes exact agreement and quadratic-weighted kappa as worked by hand", () => {
    // 3 levels; pairs (0,0) (1,1) (2,2) (1,2). Observed weighted disagreement: (1-2)^2/4 = 0.25.
    // Marginals: first rater 1,2,1; second 1,1,2. Expected: sum r_i*c_j/4 * (i-j)^2/4 = 1.25. Kappa = 1 - 0.25/1.25.
    const pairs = [
      [0, 0],
      [1, 1],
      [2, 2],
      [1, 2],
    ] as const;
    expect(exactAgreement(pairs)).toBe(0.75);
    expect(weightedKappa(pairs, 3)).toBeCloseTo(0.8, 10);
    // Opposite ends: observed 2, expected 1, kappa -1.
    expect(
      weightedKappa(
        [
          [0, 2],
          [2, 0],
        ],
        3,
      ),
    ).toBeCloseTo(-1, 10);
    // 4 levels, perfect agreement across levels: 1.
    expect(
      weightedKappa(
        [
          [0, 0],
          [3, 3],
          [1, 1],
        ],
        4,
      ),
    ).toBe(1);
    // Both raters at one level only: chance disagreement is 0, kappa undefined.
    expect(
      weightedKappa(
        [
          [1, 1],
          [1, 1],
        ],
        3,
      ),
    ).toBeNull();
    expect(weightedKappa([], 3)).toBeNull();
    expect(exactAgreement([])).toBeNull();
  });

  it("reports per practical and assessor: agreement per criterion, time to review, share passed and the sample", async () => {
    const x = await liveAssessor("Xena");
    const y = await liveAssessor("Yann");
    // Two double-marked submissions: listening (Developing, Developing) then (Not shown, Developing); scope the same both times.
    for (const [lx, ly] of [
      [2, 2],
      [0, 2],
    ] as const) {
      const { number } = await submission(`Pair${lx}`);
      await mark(x, number, "resubmit", scores(lx, 3));
      await mark(y, number, "resubmit", scores(ly, 3));
    }
    // X took two hours over each mark.
    const xMarks = await db()
      .selectFrom("practicalMark")
      .select(["id", "markedAt"])
      .where("assessorId", "=", x.id)
      .execute();
    for (const m of xMarks)
      await db()
        .updateTable("practicalMark")
        .set({ claimedAt: new Date(new Date(m.markedAt).getTime() - 2 * 3_600_000).toISOString() })
        .where("id", "=", m.id)
        .execute();
    expect((await get("/api/admin/assessor-agreement", x.cookie)).statusCode).toBe(403);
    const report = (await get("/api/admin/assessor-agreement", admin.cookie)).json() as AgreementReport;
    expect(report.doubleMarkShare).toBe(1);
    const row = report.rows.find((r) => r.assessorId === x.id);
    expect(row).toMatchObject({
      courseId: COURSE,
      marks: 2,
      pairs: 2,
      sharePassed: 0,
      decisionAgreement: 1,
      medianReviewHours: 2,
    });
    // Listening: levels (1,1) and (0,1): exact 1 of 2; kappa: observed 0.25, expected 0.25 -> 0.
    expect(row?.criteria).toEqual([
      { criterionId: "listening", title: "Listening", pairs: 2, exactAgreement: 0.5, weightedKappa: 0 },
      // Scope at one level for both: exact 1, kappa undefined.
      { criterionId: "scope", title: "Scope of practice", pairs: 2, exactAgreement: 1, weightedKappa: null },
    ]);
  });
});
