import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LearnerPractical, ReviewQueue, ReviewSubmission } from "#shared/schemas/practical.ts";
import { completeCourse } from "../setup/assessments.ts";
import { type FakeS3, startFakeS3 } from "../setup/fake-s3.ts";
import { nth } from "../setup/must.ts";
import {
  CONFIRMATIONS,
  mailSubjectsTo,
  mailsTo,
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
let assessorA: TestUser;
let assessorB: TestUser;
/** This file's app keeps uploads in an S3-compatible bucket (a local fake); the folder is the default elsewhere. */
let s3: FakeS3;
const BUCKET = "practical-files";
/** The stored objects' bytes, by key, under this file's bucket. */
const bucketObjects = () =>
  [...s3.objects]
    .filter(([id]) => id.startsWith(`${BUCKET}/`))
    .map(([id, data]) => [id.slice(BUCKET.length + 1), data] as const);

const get = (url: string, cookie?: string) => request(t.app, "GET", url, { cookie });
const post = (url: string, cookie: string | undefined, payload: unknown = {}) =>
  request(t.app, "POST", url, { cookie, payload });
const put = (url: string, cookie: string | undefined, payload: unknown) =>
  request(t.app, "PUT", url, { cookie, payload });

const CONSENT = CONFIRMATIONS;
const PASSING = [
  { criterionId: "listening", points: 4, comment: "Accurate, frequent reflections." },
  { criterionId: "scope", points: 6, comment: "Stayed in scope and referred clearly." },
];
const WEAK = [
  { criterionId: "listening", points: 2, comment: "Some reflections; more complex ones next time." },
  { criterionId: "scope", points: 3, comment: "Suggested a supplement dose: out of scope." },
];

beforeAll(async () => {
  s3 = await startFakeS3([BUCKET]);
  t = await createTestApp({
    practical: true,
    env: {
      ADMIN_EMAILS: "chief@academy.example",
      PRACTICAL_MAX_FILE_MB: "0.1",
      // Only borderline marks are double-marked here: which ones is then known.
      PRACTICAL_DOUBLE_MARK_SHARE: "0",
      ...s3.env(BUCKET),
    },
  });
  admin = await signUpUser(t.app, { email: "chief@academy.example" });
  await verifyEmail(t, admin);
  assessorA = await signUpUser(t.app, { firstName: "Ada", lastName: "Assessor" });
  assessorB = await signUpUser(t.app, { firstName: "Bea", lastName: "Assessor" });
  for (const a of [assessorA, assessorB]) {
    expect((await put(`/api/admin/learners/${a.id}/role`, admin.cookie, { role: "assessor" })).statusCode).toBe(200);
    await makeLiveAssessor(t.app, admin.cookie, a);
  }
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** A learner with every lesson, quiz and module of fixture-practical done: only the practical is left. */
async function learnerReadyForPractical(names: { firstName: string; lastName: string }) {
  const user = await signUpUser(t.app, names);
  await enrol(t, user, COURSE);
  await completeCourse(t.app, user.cookie, COURSE);
  return user;
}

async function submitWork(user: TestUser, text = "My coaching conversation, anonymised.") {
  const res = await submitPractical(t.app, user.cookie, COURSE, { text, ...CONSENT }, [
    { name: "session.mp3", data: SAMPLE_FILES.mp3, type: "audio/mpeg" },
    { name: "transcript.txt", data: SAMPLE_FILES.text, type: "text/plain" },
  ]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LearnerPractical;
}

const latestNumber = (p: LearnerPractical) => p.submissions.at(-1)!.number;

/** One assessor's mark; when it is drawn for a second mark (every borderline one is), the other assessor agrees blind. */
async function review(assessor: TestUser, number: number, decision: "pass" | "resubmit", scores = PASSING) {
  const mark = async (who: TestUser) => {
    expect((await post(`/api/review/submissions/${number}/claim`, who.cookie)).statusCode).toBe(200);
    return post(`/api/review/submissions/${number}/review`, who.cookie, {
      scores,
      feedback: decision === "pass" ? "Well done." : "Please revise the scope section.",
      decision,
    });
  };
  const first = await mark(assessor);
  if (first.statusCode !== 200 || (first.json() as ReviewSubmission).review) return first;
  expect((first.json() as ReviewSubmission).stage).toBe("second");
  await mark(assessor === assessorA ? assessorB : assessorA);
  return get(`/api/review/submissions/${number}`, assessor.cookie);
}

describe("the practical loop", () => {
  it("opens once every module is complete, and refuses the certificate until it is passed, naming it", async () => {
    const user = await signUpUser(t.app);
    await enrol(t, user, COURSE);
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json()).toMatchObject({ state: "locked" });
    const early = await submitPractical(t.app, user.cookie, COURSE, { text: "Too early", ...CONSENT });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/once every module is complete/);

    await completeCourse(t.app, user.cookie, COURSE);
    const practical = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
    expect(practical).toMatchObject({ state: "open", submissionsLeft: 3, expectedReviewDays: 5 });
    expect(practical.rubric).toMatchObject({ requiredForCertificate: true, maxPoints: 10 });
    const refused = await post("/api/certificate", user.cookie, { courseId: COURSE });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^Complete the practical assessment before requesting your certificate/);
    const detail = (await get(`/api/courses/${COURSE}`, user.cookie)).json();
    // 70 for the lessons + 30 x 1 of 2 assessments (the quiz and the practical).
    expect(detail.percent).toBe(85);
  });

  it("takes text with a PDF, a text file and an MP3, checks consent, types by content, count and size", async () => {
    const user = await learnerReadyForPractical({ firstName: "Files", lastName: "Learner" });
    const noConsent = await submitPractical(t.app, user.cookie, COURSE, { text: "Work" });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().message).toMatch(/anonymised/);
    const empty = await submitPractical(t.app, user.cookie, COURSE, { text: "  ", ...CONSENT });
    expect(empty.statusCode).toBe(400);
    const disguised = await submitPractical(t.app, user.cookie, COURSE, { text: "Work", ...CONSENT }, [
      { name: "report.pdf", data: SAMPLE_FILES.png, type: "application/pdf" },
    ]);
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().message).toMatch(/'report.pdf' is not a PDF/);
    const four = await submitPractical(
      t.app,
      user.cookie,
      COURSE,
      { text: "Work", ...CONSENT },
      Array.from({ length: 4 }, (_, i) => ({ name: `t${i}.txt`, data: SAMPLE_FILES.text })),
    );
    expect(four.statusCode).toBe(413);
    const big = await submitPractical(t.app, user.cookie, COURSE, { text: "Work", ...CONSENT }, [
      { name: "long.txt", data: Buffer.alloc(200_000, "a") },
    ]);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/at most 0.1 MB/);
    const tooLong = await submitPractical(t.app, user.cookie, COURSE, { text: "x".repeat(20_001), ...CONSENT });
    expect(tooLong.statusCode).toBe(400);
    const json = await post(`/api/practical/${COURSE}`, user.cookie, { text: "Work", consent: "yes" });
    expect(json.statusCode).toBe(415);
    // Nothing was stored by the refused attempts.
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json()).toMatchObject({
      state: "open",
      submissions: [],
    });

    const ok = await submitPractical(t.app, user.cookie, COURSE, { text: "My work", ...CONSENT }, [
      { name: "plan.pdf", data: SAMPLE_FILES.pdf },
      { name: "notes.txt", data: SAMPLE_FILES.text },
      { name: "session.mp3", data: SAMPLE_FILES.mp3 },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const practical = ok.json() as LearnerPractical;
    expect(practical.state).toBe("waiting");
    expect(nth(practical.submissions, 0).files.map((f) => [f.name, f.contentType])).toEqual([
      ["notes.txt", "text/plain"],
      ["plan.pdf", "application/pdf"],
      ["session.mp3", "audio/mpeg"],
    ]);
    const again = await submitPractical(t.app, user.cookie, COURSE, { text: "Again", ...CONSENT });
    expect(again.statusCode).toBe(409);
  });

  it("refuses the review pages to learners and visitors, and role changes to non-admins", async () => {
    const learner = await signUpUser(t.app);
    expect((await get("/api/review/queue", learner.cookie)).statusCode).toBe(403);
    expect((await get("/api/review/queue")).statusCode).toBe(401);
    expect((await post("/api/review/submissions/1/claim", learner.cookie)).statusCode).toBe(403);
    expect((await post("/api/review/submissions/1/review", learner.cookie, {})).statusCode).toBe(400);
    const bad = await post("/api/review/submissions/1/review", learner.cookie, {
      scores: PASSING,
      feedback: "x",
      decision: "pass",
    });
    expect(bad.statusCode).toBe(403);
    expect(
      (await put(`/api/admin/learners/${learner.id}/role`, assessorA.cookie, { role: "assessor" })).statusCode,
    ).toBe(403);
    expect((await put(`/api/admin/learners/${admin.id}/role`, admin.cookie, { role: "learner" })).statusCode).toBe(409);
  });

  it("shows assessors the queue oldest first with waiting times, and a number instead of the learner's name", async () => {
    const first = await learnerReadyForPractical({ firstName: "Quentin", lastName: "Queueworth" });
    const second = await learnerReadyForPractical({ firstName: "Rosalind", lastName: "Rarename" });
    const n1 = latestNumber(await submitWork(first));
    const n2 = latestNumber(await submitWork(second));
    // The first submission waited two days.
    await t.testDb.database.db
      .updateTable("practicalSubmission")
      .set({ submittedAt: new Date(Date.now() - 49 * 3_600_000).toISOString() })
      .where("id", "=", n1)
      .execute();
    const queue = (await get("/api/review/queue", assessorA.cookie)).json() as ReviewQueue;
    const mine = queue.items.filter((i) => i.number === n1 || i.number === n2);
    expect(mine.map((i) => i.number)).toEqual([n1, n2]);
    expect(mine[0]).toMatchObject({ waitingHours: 49, status: "submitted", courseTitle: "Fixture Practical" });
    const claimed = await post(`/api/review/submissions/${n2}/claim`, assessorA.cookie);
    for (const body of [JSON.stringify(queue), claimed.body])
      for (const secret of ["Rosalind", "Rarename", "Quentin", "Queueworth", second.email, second.id])
        expect(body).not.toContain(secret);
    expect((claimed.json() as ReviewSubmission).files.map((f) => f.name)).toEqual([
      `submission-${n2}-file-1.mp3`,
      `submission-${n2}-file-2.txt`,
    ]);
  });

  it("exports the learner's review and feedback without naming the assessor who gave it", async () => {
    const user = await learnerReadyForPractical({ firstName: "Own", lastName: "Data" });
    const number = latestNumber(await submitWork(user));
    expect((await review(assessorB, number, "resubmit", WEAK)).statusCode).toBe(200);
    const exported = await get("/api/account/export", user.cookie);
    expect(exported.statusCode).toBe(200);
    const [submission] = exported.json().attempts.practicalSubmissions;
    expect(submission).toMatchObject({ status: "resubmit", feedback: "Please revise the scope section." });
    expect(submission).not.toHaveProperty("reviewedBy");
    expect(submission).not.toHaveProperty("claimedBy");
    expect(exported.body).not.toContain(assessorB.id);
  });

  it("gives a revoked assessor's claimed submissions back to the queue, for another assessor to claim", async () => {
    const leaving = await signUpUser(t.app, { firstName: "Lee", lastName: "Leaving" });
    expect((await put(`/api/admin/learners/${leaving.id}/role`, admin.cookie, { role: "assessor" })).statusCode).toBe(
      200,
    );
    await makeLiveAssessor(t.app, admin.cookie, leaving);
    const user = await learnerReadyForPractical({ firstName: "Held", lastName: "Learner" });
    const number = latestNumber(await submitWork(user));
    expect((await post(`/api/review/submissions/${number}/claim`, leaving.cookie)).statusCode).toBe(200);
    expect((await post(`/api/review/submissions/${number}/claim`, assessorA.cookie)).statusCode).toBe(409);
    expect((await put(`/api/admin/learners/${leaving.id}/role`, admin.cookie, { role: "learner" })).statusCode).toBe(
      200,
    );
    const waiting = (await get("/api/review/queue", assessorA.cookie)).json() as ReviewQueue;
    expect(waiting.items.find((i) => i.number === number)).toMatchObject({ status: "submitted", claimedByMe: false });
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json()).toMatchObject({ state: "waiting" });
    expect((await review(assessorA, number, "pass")).statusCode).toBe(200);
  });

  it("lets exactly one of two assessors racing for a submission claim it", async () => {
    const user = await learnerReadyForPractical({ firstName: "Race", lastName: "Learner" });
    const number = latestNumber(await submitWork(user));
    const [a, b] = await Promise.all([
      post(`/api/review/submissions/${number}/claim`, assessorA.cookie),
      post(`/api/review/submissions/${number}/claim`, assessorB.cookie),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [winner, loser] = a.statusCode === 200 ? [assessorA, assessorB] : [assessorB, assessorA];
    expect((a.statusCode === 409 ? a : b).json().message).toMatch(/Another assessor has already claimed/);
    const lost = await post(`/api/review/submissions/${number}/review`, loser.cookie, {
      scores: PASSING,
      feedback: "Mine",
      decision: "pass",
    });
    expect(lost.statusCode).toBe(409);
    const won = await post(`/api/review/submissions/${number}/review`, winner.cookie, {
      scores: PASSING,
      feedback: "Well done.",
      decision: "pass",
    });
    expect(won.statusCode).toBe(200);
    // At the line on every criterion: borderline, so it waits for a blind second mark.
    expect((won.json() as ReviewSubmission).stage).toBe("second");
    const twice = await post(`/api/review/submissions/${number}/review`, winner.cookie, {
      scores: PASSING,
      feedback: "Again",
      decision: "pass",
    });
    expect(twice.statusCode).toBe(409);
  });

  it("passes at Competent on every criterion and refuses a pass one level under on either, the critical one too", async () => {
    const user = await learnerReadyForPractical({ firstName: "Line", lastName: "Learner" });
    const number = latestNumber(await submitWork(user));
    expect((await post(`/api/review/submissions/${number}/claim`, assessorA.cookie)).statusCode).toBe(200);
    const pass = (scores: typeof PASSING) =>
      post(`/api/review/submissions/${number}/review`, assessorA.cookie, {
        scores,
        feedback: "Checked.",
        decision: "pass",
      });
    const rubric = ((await get(`/api/review/submissions/${number}`, assessorA.cookie)).json() as ReviewSubmission)
      .rubric;
    expect(rubric.passRuleText).toBe("every criterion at least Competent");
    expect(rubric.criteria.map((c) => [c.id, c.critical])).toEqual([
      ["listening", false],
      ["scope", true],
    ]);
    for (const under of [
      [WEAK[0]!, PASSING[1]!], // listening Developing (2 of 4)
      [PASSING[0]!, WEAK[1]!], // scope, critical, Developing (3 of 6)
    ]) {
      const refused = await pass(under);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        "These scores do not meet the pass rule (every criterion at least Competent): choose resubmit.",
      );
    }
    const atTheLine = await pass(PASSING);
    expect(atTheLine.statusCode, atTheLine.body).toBe(200);
    // At the line: borderline, so the learner waits for a blind second mark; it agrees, and the first mark is the result.
    expect((atTheLine.json() as ReviewSubmission).review).toBeNull();
    expect((await get(`/api/practical/${COURSE}`, user.cookie)).json()).toMatchObject({ state: "waiting" });
    const second = await review(assessorB, number, "pass");
    expect((second.json() as ReviewSubmission).review).toMatchObject({
      decision: "pass",
      points: 10,
      maxPoints: 10,
    });
  });

  it("scores every criterion, asks for a resubmission with feedback, allows 2 resubmissions, then an admin grants more, then issues the certificate", async () => {
    const user = await learnerReadyForPractical({ firstName: "Loop", lastName: "Learner" });
    let number = latestNumber(await submitWork(user));

    const unmet = await review(assessorA, number, "pass", WEAK);
    expect(unmet.statusCode).toBe(400);
    expect(unmet.json().message).toMatch(/do not meet the pass rule \(every criterion at least Competent\)/);
    const missing = await post(`/api/review/submissions/${number}/review`, assessorA.cookie, {
      scores: [PASSING[0]],
      feedback: "x",
      decision: "pass",
    });
    expect(missing.json().message).toMatch(/Score the criterion "Scope of practice"/);
    const offLevel = await post(`/api/review/submissions/${number}/review`, assessorA.cookie, {
      scores: [PASSING[0], { ...PASSING[1], points: 5 }],
      feedback: "x",
      decision: "pass",
    });
    expect(offLevel.json().message).toMatch(/scored at one of its levels: 0, 3, 6 points/);
    const resubmit = await post(`/api/review/submissions/${number}/review`, assessorA.cookie, {
      scores: WEAK,
      feedback: "Please revise the scope section.",
      decision: "resubmit",
    });
    expect(resubmit.statusCode).toBe(200);

    let mine = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
    expect(mine).toMatchObject({ state: "resubmit", submissionsLeft: 2 });
    expect(nth(mine.submissions, 0).review).toMatchObject({
      decision: "resubmit",
      feedback: "Please revise the scope section.",
      points: 5,
      maxPoints: 10,
      scores: WEAK,
    });
    expect(await mailSubjectsTo(t, user.email)).toContain("Please resubmit your practical: Fixture Practical");
    // The mail carries the result itself: each criterion's level and the assessor's comment.
    const resubmitMail = (await mailsTo(t, user.email)).find((m) => m.includes("Please resubmit your practical")) ?? "";
    const plain = resubmitMail.split(/Content-Type: text\/html/)[0] ?? "";
    expect(plain).toContain("Listening: Developing Some reflections; more complex ones next time.");
    expect(plain).toContain("Scope of practice: Developing Suggested a supplement dose: out of scope.");

    // Two resubmissions, both sent back.
    for (const left of [1, 0]) {
      number = latestNumber(await submitWork(user, "Revised work"));
      expect((await review(assessorB, number, "resubmit", WEAK)).statusCode).toBe(200);
      mine = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
      expect(mine.submissionsLeft).toBe(left);
    }
    expect(mine.state).toBe("closed");
    const closed = await submitPractical(t.app, user.cookie, COURSE, { text: "Once more", ...CONSENT });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toMatch(/An admin can allow another one/);

    // The fourth review saw the three earlier ones.
    const grant = await post(`/api/admin/learners/${user.id}/attempt-grants`, admin.cookie, {
      courseId: COURSE,
      assessment: "practical",
    });
    expect(grant.statusCode).toBe(200);
    number = latestNumber(await submitWork(user, "Final work"));
    const passed = await review(assessorA, number, "pass");
    expect(passed.statusCode).toBe(200);
    expect((passed.json() as ReviewSubmission).earlierReviews.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(await mailSubjectsTo(t, user.email)).toContain("Practical assessment passed: Fixture Practical");

    mine = (await get(`/api/practical/${COURSE}`, user.cookie)).json() as LearnerPractical;
    expect(mine).toMatchObject({ state: "passed", submissionsLeft: 0 });
    const issued = await post("/api/certificate", user.cookie, { courseId: COURSE });
    expect(issued.statusCode, issued.body).toBe(200);
    const progress = (await get(`/api/progress/${COURSE}`, user.cookie)).json();
    expect(progress.percent).toBe(100);
    const credential = await get(`/api/certificates/${issued.json().certificateId}/credential`, user.cookie);
    expect(credential.json().credentialSubject.achievement.criteria.narrative).toContain(
      "Pass the practical skills assessment, scored by an assessor against its rubric: Fixture coaching practical.",
    );

    const audit = await t.testDb.database.db
      .selectFrom("auditLog")
      .select(["action", "target", "actorEmail"])
      .where("action", "in", ["practical.review", "practical.grant"])
      .execute();
    for (let i = 0; i < 4; i++) expect(audit.map((a) => a.target)).toContain(`submission #${number - i}`);
    expect(audit).toContainEqual({ action: "practical.grant", target: user.email, actorEmail: admin.email });
  });

  it("serves a recording by byte range from the bucket so the player can seek, to the same people, 416 past its end", async () => {
    const owner = await learnerReadyForPractical({ firstName: "Range", lastName: "Learner" });
    const recording = Buffer.concat([SAMPLE_FILES.mp3, Buffer.from(owner.id)]);
    const sent = await submitPractical(t.app, owner.cookie, COURSE, { text: "A recorded session", ...CONSENT }, [
      { name: "session.mp3", data: recording, type: "audio/mpeg" },
    ]);
    expect(sent.statusCode, sent.body).toBe(200);
    const file = nth(nth((sent.json() as LearnerPractical).submissions, 0).files, 0);
    const url = `/api/practical-files/${file.id}`;
    const ranged = (range: string, cookie: string | undefined = assessorA.cookie) =>
      request(t.app, "GET", url, { cookie, headers: { range } });
    const size = recording.length;

    const whole = await get(url, assessorA.cookie);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.rawPayload.equals(recording)).toBe(true);

    const s3Reads = s3.requests.length;
    const first = await ranged("bytes=0-99");
    expect(first.statusCode).toBe(206);
    expect(first.headers["content-range"]).toBe(`bytes 0-99/${size}`);
    expect(first.headers["content-type"]).toBe("audio/mpeg");
    expect(first.rawPayload.equals(recording.subarray(0, 100))).toBe(true);
    // The bucket was asked for that part only.
    expect(s3.requests.slice(s3Reads).map((r) => r.range)).toContain("bytes=0-99");

    // The last byte is a range; one past it is not.
    const last = await ranged(`bytes=${size - 1}-`, owner.cookie);
    expect(last.statusCode).toBe(206);
    expect(last.headers["content-range"]).toBe(`bytes ${size - 1}-${size - 1}/${size}`);
    expect(last.rawPayload.equals(recording.subarray(size - 1))).toBe(true);
    const past = await ranged(`bytes=${size}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${size}`);
    expect(past.json().message).toMatch(/outside the file/);
    const suffix = await ranged("bytes=-10", admin.cookie);
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(recording.subarray(size - 10))).toBe(true);
    // An end past the file is cut to it.
    const long = await ranged(`bytes=10-${size + 500}`);
    expect(long.headers["content-range"]).toBe(`bytes 10-${size - 1}/${size}`);

    // Authorised as the whole file is: nobody else gets a byte, and a range never turns a refusal into a 416.
    const stranger = await signUpUser(t.app);
    expect((await ranged("bytes=0-99", stranger.cookie)).statusCode).toBe(403);
    expect((await ranged(`bytes=${size}-`, stranger.cookie)).statusCode).toBe(403);
    expect((await request(t.app, "GET", url, { headers: { range: "bytes=0-99" } })).statusCode).toBe(401);
  });

  it("serves files only to their learner, assessors and admins, as downloads, from the bucket", async () => {
    const owner = await learnerReadyForPractical({ firstName: "Owner", lastName: "Learner" });
    // A PDF no other test uploads, so its object can be told apart in the shared bucket.
    const pdf = Buffer.concat([SAMPLE_FILES.pdf, Buffer.from(`% ${owner.id}\n`)]);
    const sent = await submitPractical(t.app, owner.cookie, COURSE, { text: "With a file", ...CONSENT }, [
      { name: "my plan.pdf", data: pdf },
      { name: "session.mp3", data: SAMPLE_FILES.mp3 },
    ]);
    const file = nth(nth((sent.json() as LearnerPractical).submissions, 0).files, 0);
    expect(bucketObjects().filter(([, data]) => data.equals(pdf))).toHaveLength(1);
    const url = `/api/practical-files/${file.id}`;
    const mine = await get(url, owner.cookie);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers["content-type"]).toBe("application/pdf");
    expect(mine.headers["content-disposition"]).toMatch(/^attachment; .*filename\*=UTF-8''my%20plan\.pdf$/);
    expect(mine.rawPayload.equals(pdf)).toBe(true);
    const forAssessor = await get(url, assessorB.cookie);
    expect(forAssessor.statusCode).toBe(200);
    expect(forAssessor.headers["content-disposition"]).toMatch(/filename\*=UTF-8''submission-\d+-file-1\.pdf$/);
    expect((await get(url, admin.cookie)).statusCode).toBe(200);
    const stranger = await signUpUser(t.app);
    expect((await get(url, stranger.cookie)).statusCode).toBe(403);
    expect((await get(url)).statusCode).toBe(401);
    expect((await get("/api/practical-files/00000000-0000-4000-8000-000000000000", owner.cookie)).statusCode).toBe(404);
    // An object gone from the bucket behind the app's back (a lifecycle rule, a hand): not found, not a fault.
    const [objectId] = nth(
      [...s3.objects].filter(([, data]) => data.equals(pdf)),
      0,
    );
    s3.objects.delete(objectId);
    const gone = await get(url, owner.cookie);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: "File not found." });
    s3.objects.set(objectId, pdf);

    // Erasing the account takes the file out of the bucket too.
    const erased = await post("/api/account/delete", owner.cookie, { password: owner.password });
    expect(erased.statusCode, erased.body).toBe(200);
    // The files go by a one-off job once the erasure commits (decision 0059): its turn, run now.
    await t.app.deps.oneOffJobs.runDue();
    expect(bucketObjects().filter(([, data]) => data.equals(pdf))).toHaveLength(0);
    expect((await get(url, assessorB.cookie)).statusCode).toBe(404);
  });
});
