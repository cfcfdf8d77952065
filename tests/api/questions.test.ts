import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POSTS_PER_WINDOW } from "#server/modules/questions/questions.service.ts";
import type { LessonQuestions, ModerationQueue, Notifications, QuestionDetail } from "#shared/schemas/questions.ts";
import { deliverQueuedMail } from "../setup/outbox.ts";
import { cookieFrom, createTestApp, enrol, signUpUser, type TestApp, type TestUser } from "../setup/test-app.ts";
import { startTestSmtp, type TestSmtp, verificationLinkIn } from "../setup/test-smtp.ts";

// Questions on lessons (decision 0056) through the real routes, on the engine this run tests.
const COURSE = "fixture-basics";
const PREVIEW = "alpha-one";
const LESSON = "alpha-two";
const OTHER_COURSE = "fixture-other";

let t: TestApp;
let smtp: TestSmtp;
let admin: TestUser;
let staff: TestUser;
let asker: TestUser;
let classmate: TestUser;
let outsider: TestUser;
/** An instructor of another course: no more than a visitor here. */
let otherInstructor: TestUser;

const call = (method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH", url: string, user?: TestUser, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { origin: "http://localhost:3000", ...(user ? { cookie: user.cookie } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const lessonUrl = (lesson = LESSON, course = COURSE) => `/api/courses/${course}/lessons/${lesson}/questions`;

async function ask(
  user: TestUser,
  title = "How much protein after a workout?",
  body = "Is **20 g** enough?",
  lesson = LESSON,
) {
  const res = await call("POST", lessonUrl(lesson), user, { title, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QuestionDetail;
}
async function answer(user: TestUser, questionId: string, body = "Usually *20 to 40 g*, spread out.") {
  const before = new Set(
    ((await call("GET", `/api/questions/${questionId}`, user)).json() as QuestionDetail).answers.map((a) => a.id),
  );
  const res = await call("POST", `/api/questions/${questionId}/answers`, user, { body });
  expect(res.statusCode, res.body).toBe(200);
  const detail = res.json() as QuestionDetail;
  const added = detail.answers.find((a) => !before.has(a.id));
  if (!added) throw new Error("the answer is not in the question");
  return { detail, answer: added };
}
const list = async (user?: TestUser, lesson = LESSON) => {
  const res = await call("GET", lessonUrl(lesson), user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LessonQuestions;
};

async function learner(names: { firstName: string; lastName: string }, enrolled = true) {
  const user = await signUpUser(t.app, names);
  if (enrolled) await enrol(t, user, COURSE);
  return user;
}
const mailsTo = async (user: TestUser) => {
  await deliverQueuedMail(t.app);
  return smtp.inbox.filter((m) => m.to.includes(user.email));
};
/** A message's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({
    env: { ADMIN_EMAILS: "moderator@academy.example", SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
  });
  admin = await signUpUser(t.app, { email: "moderator@academy.example", firstName: "Mo", lastName: "Derator" });
  const proof = (await mailsTo(admin)).find((m) => /verify-email/.test(m.raw));
  const link = new URL(verificationLinkIn(proof ?? { to: [], raw: "" }));
  const verified = await t.app.inject({
    method: "GET",
    url: link.pathname + link.search,
    headers: { cookie: admin.cookie },
  });
  admin.cookie = cookieFrom(verified) || admin.cookie;
  staff = await signUpUser(t.app, { firstName: "Iris", lastName: "Instructor" });
  otherInstructor = await signUpUser(t.app, { firstName: "Otto", lastName: "Other" });
  for (const [user, course] of [
    [staff, COURSE],
    [otherInstructor, OTHER_COURSE],
  ] as const) {
    expect((await call("PUT", `/api/admin/learners/${user.id}/role`, admin, { role: "instructor" })).statusCode).toBe(
      200,
    );
    const assigned = await call("POST", "/api/admin/course-staff", admin, {
      userId: user.id,
      courseId: course,
      role: "instructor",
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }
  asker = await learner({ firstName: "Amara", lastName: "Okafor" });
  classmate = await learner({ firstName: "Ben", lastName: "Lee" });
  outsider = await learner({ firstName: "Olga", lastName: "Out" }, false);
});
// Every test starts inside the posting limit for the accounts they share (the limit has its own test).
beforeEach(async () => {
  for (const user of [admin, staff, asker, classmate]) await t.app.deps.counters.clear(`questions:post:${user.id}`);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("asking and reading", () => {
  it("an enrolled learner asks; others read it with the name as first name and last initial, never the e-mail", async () => {
    const q = await ask(asker, "Protein timing for shift workers?");
    expect(q.author).toEqual({ name: "Amara O.", badge: null });
    expect(q.following).toBe(true);
    const seen = await list(classmate);
    const item = seen.items.find((i) => i.id === q.id);
    expect(item?.author.name).toBe("Amara O.");
    expect(JSON.stringify(seen)).not.toContain(asker.email);
    expect(seen.canPost).toBe(true);
  });

  it("visitors and learners not enrolled read the preview lesson's questions but cannot post there", async () => {
    const q = await ask(asker, "Is the preview lesson's advice for beginners?", "Just checking.", PREVIEW);
    for (const who of [undefined, outsider]) {
      const page = await list(who, PREVIEW);
      expect(page.items.map((i) => i.id)).toContain(q.id);
      expect(page.canPost).toBe(false);
      expect((await call("GET", `/api/questions/${q.id}`, who)).statusCode).toBe(200);
      const post = await call("POST", lessonUrl(PREVIEW), who, { title: "Can I ask without enrolling?", body: "Hi" });
      expect(post.statusCode).toBe(who ? 403 : 401);
      expect((await call("POST", `/api/questions/${q.id}/answers`, who, { body: "Me too" })).statusCode).toBe(
        who ? 403 : 401,
      );
    }
    expect((await list(outsider, PREVIEW)).postingRefusal).toMatch(/enrolled/);
  });

  it("a lesson past the preview: visitors 401, learners not enrolled 403, enrolled learners, staff and admins read", async () => {
    const q = await ask(asker, "Which lesson covers fibre?");
    expect((await call("GET", lessonUrl(), undefined)).statusCode).toBe(401);
    expect((await call("GET", lessonUrl(), outsider)).statusCode).toBe(403);
    expect((await call("GET", `/api/questions/${q.id}`, outsider)).statusCode).toBe(403);
    expect((await call("GET", `/api/questions/${q.id}`, undefined)).statusCode).toBe(401);
    for (const who of [classmate, staff, admin]) expect((await list(who)).items.map((i) => i.id)).toContain(q.id);
    // Staff post without an enrolment, badged.
    const s = await ask(staff, "Staff note: where is the week 2 handout?");
    expect(s.author).toEqual({ name: "Iris I.", badge: "instructor" });
    expect((await ask(admin, "Admin: is the glossary linked well?")).author.badge).toBe("admin");
  });

  it("another course's instructor is a visitor here: reads the preview lesson only, posts nothing, answers no queue", async () => {
    const q = await ask(asker, "Visible to the other course's instructor?", "Only on the preview?", PREVIEW);
    const inner = await ask(asker, "Past the preview, for this course's staff?");
    expect((await list(otherInstructor, PREVIEW)).canPost).toBe(false);
    expect((await call("GET", lessonUrl(), otherInstructor)).statusCode).toBe(403);
    expect((await call("GET", `/api/questions/${inner.id}`, otherInstructor)).statusCode).toBe(403);
    expect(
      (await call("POST", `/api/questions/${q.id}/answers`, otherInstructor, { body: "From elsewhere" })).statusCode,
    ).toBe(403);
    expect((await call("POST", `/api/questions/${q.id}/promote`, otherInstructor)).statusCode).toBe(403);
    const theirs = (await call("GET", "/api/staff/questions?status=unanswered", otherInstructor)).json().items as {
      courseId: string;
    }[];
    expect(theirs.every((i) => i.courseId === OTHER_COURSE)).toBe(true);
    // Older than the questions other tests seed, so it is on the queue's first page.
    await t.testDb.database.db
      .updateTable("post")
      .set({ createdAt: "2024-06-01T00:00:00.000Z" })
      .where("id", "=", inner.id)
      .execute();
    const ours = (await call("GET", "/api/staff/questions?status=unanswered", staff)).json().items as {
      id: string;
      courseId: string;
    }[];
    expect(ours.map((i) => i.id)).toContain(inner.id);
    expect(ours.every((i) => i.courseId === COURSE)).toBe(true);
    // In their own course they are staff.
    const own = await call("POST", lessonUrl("delta-one", OTHER_COURSE), otherInstructor, {
      title: "Instructor note on delta?",
      body: "Hi",
    });
    expect(own.json().author).toEqual({ name: "Otto O.", badge: "instructor" });
  });

  it("refuses bad input with 400 and a message, and an unknown lesson or question with 404", async () => {
    for (const payload of [
      { title: "short", body: "x" },
      { title: "A fine enough title", body: "   " },
      { title: "A fine title", body: "x".repeat(5001) },
      { title: "A title that is fine", body: "ok", extra: 1 },
    ]) {
      const res = await call("POST", lessonUrl(), asker, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    // At the limits: 8 characters of title and 5,000 of body pass.
    expect((await call("POST", lessonUrl(), asker, { title: "Eight ch", body: "x".repeat(5000) })).statusCode).toBe(
      200,
    );
    expect(
      (await call("POST", lessonUrl("no-such-lesson"), asker, { title: "Where is this?", body: "x" })).statusCode,
    ).toBe(404);
    expect((await call("GET", `/api/questions/${randomUUID()}`, asker)).statusCode).toBe(404);
  });

  it("pages a lesson's questions newest first, twenty at a time, with nothing repeated or lost", async () => {
    const lesson = "beta-one";
    const ids: string[] = [];
    const poster = await learner({ firstName: "Pat", lastName: "Pager" });
    const db = t.testDb.database.db;
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    await db
      .insertInto("post")
      .values(
        Array.from({ length: 41 }, (_, i) => {
          const id = randomUUID();
          ids.push(id);
          return {
            id,
            kind: "question" as const,
            courseId: COURSE,
            lessonId: lesson,
            questionId: null,
            authorId: poster.id,
            badge: null,
            title: `Seeded question ${i}`,
            body: "body",
            html: "<p>body</p>",
            state: "visible" as const,
            acceptedAnswerId: null,
            // Two share each second, so the cursor's tie-break on id is used.
            createdAt: new Date(base + Math.floor(i / 2) * 1000).toISOString(),
            editedAt: null,
            notifiedAt: null,
          };
        }),
      )
      .execute();
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const res = await call("GET", `${lessonUrl(lesson)}${cursor ? `?cursor=${cursor}` : ""}`, classmate);
      const page = res.json() as LessonQuestions;
      sizes.push(page.items.length);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([20, 20, 1]);
    expect(new Set(seen).size).toBe(41);
    expect(seen.toSorted()).toEqual(ids.toSorted());
    // Newest first: the seconds never go up along the pages.
    const seconds = seen.map((id) => Math.floor(ids.indexOf(id) / 2));
    expect(seconds).toEqual(seconds.toSorted((a, b) => b - a));
    expect((await call("GET", `${lessonUrl(lesson)}?cursor=not-a-cursor`, classmate)).statusCode).toBe(400);
  });

  it("a lesson with 2,000 questions opens its first page with the same statements as an empty one", async () => {
    const lesson = "beta-two";
    const poster = await learner({ firstName: "Many", lastName: "Posts" });
    const db = t.testDb.database.db;
    const count = async () => {
      const before = t.testDb.database.queryCount();
      const res = await call("GET", lessonUrl(lesson), classmate);
      expect(res.statusCode).toBe(200);
      return { statements: t.testDb.database.queryCount() - before, page: res.json() as LessonQuestions };
    };
    // Warm (the session's first read), then counted; other work of the process (cache news polls) may add to a count, never take from it.
    await count();
    const empty = await count();
    for (let batch = 0; batch < 20; batch++)
      await db
        .insertInto("post")
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            id: randomUUID(),
            kind: "question" as const,
            courseId: COURSE,
            lessonId: lesson,
            questionId: null,
            authorId: poster.id,
            badge: null,
            title: `Bulk ${batch}-${i}`,
            body: "bulk",
            html: "<p>bulk</p>",
            state: "visible" as const,
            acceptedAnswerId: null,
            createdAt: new Date(Date.UTC(2026, 0, 1) + (batch * 100 + i) * 1000).toISOString(),
            editedAt: null,
            notifiedAt: null,
          })),
        )
        .execute();
    const full = await count();
    expect(full.page.items).toHaveLength(20);
    expect(full.page.items[0]?.title).toBe("Bulk 19-99");
    expect(full.statements).toBeLessThanOrEqual(empty.statements);
  });
});

describe("every authorisation rule, route by route", () => {
  it("visitor, learner not enrolled, enrolled learner, another course's instructor, instructor, admin", async () => {
    // One question past the preview, asked by `asker`, with a classmate's answer, and a post to hide.
    const q = await ask(asker, "Who may do what on this question?");
    const theirs = (await answer(classmate, q.id, "A classmate's answer.")).answer;
    const toHide = (await answer(asker, q.id, "The asker's own answer, to be hidden.")).answer;
    const roles = ["visitor", "outsider", "enrolled", "otherInstructor", "instructor", "admin"] as const;
    const as = { visitor: undefined, outsider, enrolled: classmate, otherInstructor, instructor: staff, admin };
    /** Statuses in the order of `roles`; a route is called once per role, in that order. */
    const rules: [string, string, unknown, number[]][] = [
      ["GET", lessonUrl(), undefined, [401, 403, 200, 403, 200, 200]],
      ["GET", `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`, undefined, [401, 403, 200, 403, 200, 200]],
      ["GET", `/api/questions/${q.id}`, undefined, [401, 403, 200, 403, 200, 200]],
      ["GET", `/api/courses/${COURSE}/questions?search=authorisation`, undefined, [401, 403, 200, 403, 200, 200]],
      ["POST", lessonUrl(), { title: "May I ask here, please?", body: "x" }, [401, 403, 200, 403, 200, 200]],
      ["POST", `/api/questions/${q.id}/answers`, { body: "An answer." }, [401, 403, 200, 403, 200, 200]],
      ["POST", `/api/questions/${q.id}/upvote`, undefined, [401, 403, 200, 403, 200, 200]],
      ["DELETE", `/api/questions/${q.id}/upvote`, undefined, [401, 403, 200, 403, 200, 200]],
      ["POST", `/api/questions/${q.id}/follow`, undefined, [401, 403, 200, 403, 200, 200]],
      ["DELETE", `/api/questions/${q.id}/follow`, undefined, [401, 403, 200, 403, 200, 200]],
      // A post the reader may not read is not found for them.
      ["POST", `/api/posts/${q.id}/report`, { reason: "other" }, [401, 404, 200, 404, 200, 200]],
      // Accepting is the asker's or staff's; the classmate is neither.
      ["POST", `/api/answers/${theirs.id}/accept`, undefined, [401, 404, 403, 404, 200, 200]],
      ["POST", `/api/questions/${q.id}/promote`, undefined, [401, 403, 403, 403, 200, 200]],
      ["DELETE", `/api/questions/${q.id}/promote`, undefined, [401, 403, 403, 403, 200, 200]],
      // Edits and deletions are the author's alone: staff and admins included are refused.
      ["PATCH", `/api/questions/${q.id}`, { title: "Taken over by someone else" }, [401, 403, 403, 403, 403, 403]],
      ["DELETE", `/api/questions/${q.id}`, undefined, [401, 403, 403, 403, 403, 403]],
      ["PATCH", `/api/answers/${toHide.id}`, { body: "Rewritten by another." }, [401, 404, 403, 404, 403, 403]],
      ["DELETE", `/api/answers/${toHide.id}`, undefined, [401, 404, 403, 404, 403, 403]],
      ["GET", "/api/staff/questions?status=unanswered", undefined, [401, 403, 403, 200, 200, 200]],
      ["GET", "/api/admin/posts", undefined, [401, 403, 403, 403, 403, 200]],
      ["POST", `/api/admin/posts/${toHide.id}/hide`, undefined, [401, 403, 403, 403, 403, 200]],
      ["POST", `/api/admin/posts/${toHide.id}/restore`, undefined, [401, 403, 403, 403, 403, 200]],
      [
        "POST",
        `/api/admin/learners/${outsider.id}/posting`,
        { suspended: false, reason: "Checking who may" },
        [401, 403, 403, 403, 403, 200],
      ],
      ["GET", "/api/notifications", undefined, [401, 200, 200, 200, 200, 200]],
      ["POST", "/api/posts/preview", { body: "*hi*" }, [401, 200, 200, 200, 200, 200]],
    ];
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [method, url, payload, statuses] of rules)
      for (const [i, role] of roles.entries()) {
        const res = await call(method as "GET", url, as[role], payload);
        seen.push(`${method} ${url} as ${role}: ${res.statusCode}`);
        wanted.push(`${method} ${url} as ${role}: ${statuses[i]}`);
      }
    expect(seen).toEqual(wanted);
    // Nothing a refusal touched changed: the question and both answers are still the authors' own.
    const after = (await call("GET", `/api/questions/${q.id}`, asker)).json() as QuestionDetail;
    expect(after.title).toBe("Who may do what on this question?");
    expect(after.answers.map((a) => a.html)).toEqual(
      expect.arrayContaining([expect.stringContaining("classmate"), expect.stringContaining("to be hidden")]),
    );
  });
});

describe("answers, acceptance, votes and follows", () => {
  it("answers show their staff badge; the asker accepts, a classmate cannot, staff can", async () => {
    const q = await ask(asker, "Can clients skip breakfast safely?");
    const fromClassmate = (await answer(classmate, q.id, "I skip it and feel fine.")).answer;
    const fromStaff = (await answer(staff, q.id, "It depends on the client's goals.")).answer;
    expect(fromStaff.author).toEqual({ name: "Iris I.", badge: "instructor" });
    expect(fromClassmate.author.badge).toBeNull();
    expect((await call("POST", `/api/answers/${fromStaff.id}/accept`, classmate)).statusCode).toBe(403);
    expect((await call("POST", `/api/answers/${fromStaff.id}/accept`, outsider)).statusCode).toBe(404);
    const accepted = await call("POST", `/api/answers/${fromStaff.id}/accept`, asker);
    expect(accepted.statusCode).toBe(200);
    const detail = accepted.json() as QuestionDetail;
    expect(detail.acceptedAnswerId).toBe(fromStaff.id);
    expect(detail.answers[0]?.id).toBe(fromStaff.id);
    // Staff may move the acceptance.
    const moved = await call("POST", `/api/answers/${fromClassmate.id}/accept`, staff);
    expect((moved.json() as QuestionDetail).acceptedAnswerId).toBe(fromClassmate.id);
    expect((await list(classmate)).items.find((i) => i.id === q.id)?.answered).toBe(true);
  });

  it("upvotes once per account: a second upvote is the same one; taking it back removes it", async () => {
    const q = await ask(asker, "Is intermittent fasting in scope for coaches?");
    for (let i = 0; i < 2; i++) {
      const res = await call("POST", `/api/questions/${q.id}/upvote`, classmate);
      expect(res.json()).toEqual({ upvoted: true, upvotes: 1 });
    }
    expect((await call("POST", `/api/questions/${q.id}/upvote`, staff)).json()).toEqual({ upvoted: true, upvotes: 2 });
    const mine = (await list(classmate)).items.find((i) => i.id === q.id);
    expect(mine).toMatchObject({ upvotes: 2, upvoted: true });
    expect((await list(asker)).items.find((i) => i.id === q.id)?.upvoted).toBe(false);
    expect((await call("DELETE", `/api/questions/${q.id}/upvote`, classmate)).json()).toEqual({
      upvoted: false,
      upvotes: 1,
    });
    // Parallel upvotes of one account still count once.
    await Promise.all(Array.from({ length: 5 }, () => call("POST", `/api/questions/${q.id}/upvote`, classmate)));
    expect((await list(asker)).items.find((i) => i.id === q.id)?.upvotes).toBe(2);
    expect((await call("POST", `/api/questions/${q.id}/upvote`, outsider)).statusCode).toBe(403);
    expect((await call("POST", `/api/questions/${q.id}/upvote`, undefined)).statusCode).toBe(401);
  });

  it("followers get a notice and an e-mail for an answer and an acceptance; the one who acted does not", async () => {
    const follower = await learner({ firstName: "Fay", lastName: "Follower" });
    const q = await ask(asker, "What about caffeine before bed?");
    expect((await call("POST", `/api/questions/${q.id}/follow`, follower)).json()).toEqual({ following: true });
    const { answer: a } = await answer(staff, q.id, "Cut off caffeine <script>alert('x')</script> by **noon**.");
    const notices = (await call("GET", "/api/notifications", asker)).json() as Notifications;
    expect(notices.items.find((n) => n.questionId === q.id)).toMatchObject({ kind: "answer", read: false });
    expect((await call("GET", "/api/notifications", follower)).json().items[0]).toMatchObject({
      questionId: q.id,
      kind: "answer",
    });
    expect(
      ((await call("GET", "/api/notifications", staff)).json() as Notifications).items.some(
        (n) => n.questionId === q.id,
      ),
    ).toBe(false);
    const mail = (await mailsTo(asker)).find((m) => decoded(m.raw).includes("What about caffeine before bed?"));
    expect(mail, "the asker's e-mail").toBeDefined();
    const text = decoded(mail?.raw ?? "");
    expect(text).toContain("Content-Type: text/plain");
    expect(text).toContain("Content-Type: text/html");
    expect(text).toMatch(/List-Unsubscribe:\s+<http:\/\/localhost:3000\/api\/questions\/unsubscribe\?token=/);
    expect(text).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(text).not.toContain("<script");
    expect(text).toContain("Iris I.");
    // Accepting tells the followers but not the asker who accepted.
    const unreadBefore = ((await call("GET", "/api/notifications", asker)).json() as Notifications).unread;
    await call("POST", `/api/answers/${a.id}/accept`, asker);
    expect(((await call("GET", "/api/notifications", asker)).json() as Notifications).unread).toBe(unreadBefore);
    expect(((await call("GET", "/api/notifications", follower)).json() as Notifications).items[0]?.kind).toBe(
      "accepted",
    );
    // Read: the count on the avatar goes to zero.
    expect((await call("POST", "/api/notifications/read", follower)).statusCode).toBe(200);
    expect(((await call("GET", "/api/notifications", follower)).json() as Notifications).unread).toBe(0);
    // Unfollowed: nothing more.
    await call("DELETE", `/api/questions/${q.id}/follow`, follower);
    await answer(classmate, q.id, "Decaf after lunch works for me.");
    expect(((await call("GET", "/api/notifications", follower)).json() as Notifications).unread).toBe(0);
  });

  it("one-click unsubscribe: from one question (unfollows it) and from all question mail (notices stay)", async () => {
    const reader = await learner({ firstName: "Uma", lastName: "Unsub" });
    const q1 = await ask(reader, "First question on hydration?");
    const q2 = await ask(reader, "Second question on electrolytes?");
    await answer(staff, q1.id, "Water first.");
    const mail = (await mailsTo(reader)).find((m) => decoded(m.raw).includes("First question on hydration?"));
    const one = /api\/questions\/unsubscribe\?token=([\w.-]+)/.exec(decoded(mail?.raw ?? ""))?.[1];
    const all = /questions\/unsubscribe\?token=([\w.-]+)/g;
    const tokens = [...decoded(mail?.raw ?? "").matchAll(all)].map((m) => m[1]);
    const allToken = tokens.find((tok) => tok !== one);
    expect(one && allToken).toBeTruthy();
    // A mail client's one-click POST carries a form body.
    const res = await t.app.inject({
      method: "POST",
      url: `/api/questions/unsubscribe?token=${one}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(((await call("GET", `/api/questions/${q1.id}`, reader)).json() as QuestionDetail).following).toBe(false);
    expect((await call("POST", `/api/questions/unsubscribe?token=${allToken}`)).statusCode).toBe(200);
    const before = (await mailsTo(reader)).length;
    await answer(staff, q2.id, "Salt and potassium.");
    expect((await mailsTo(reader)).length).toBe(before);
    expect(((await call("GET", "/api/notifications", reader)).json() as Notifications).items[0]?.questionId).toBe(
      q2.id,
    );
    // A forged or changed token is refused.
    expect((await call("POST", `/api/questions/unsubscribe?token=${allToken}x`)).statusCode).toBe(400);
  });

  it("authors edit and delete their own posts (an edit says so); nobody else can", async () => {
    const q = await ask(asker, "Typo in my question titel?");
    const { answer: a } = await answer(classmate, q.id, "Firts answer");
    expect(
      (await call("PATCH", `/api/questions/${q.id}`, classmate, { title: "Hijacked title here" })).statusCode,
    ).toBe(403);
    expect((await call("PATCH", `/api/questions/${q.id}`, admin, { title: "Admin edit attempt" })).statusCode).toBe(
      403,
    );
    const edited = await call("PATCH", `/api/questions/${q.id}`, asker, { title: "Typo in my question title?" });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: "Typo in my question title?", editedAt: expect.any(String) });
    expect((await call("PATCH", `/api/answers/${a.id}`, asker, { body: "Not mine" })).statusCode).toBe(403);
    const fixed = await call("PATCH", `/api/answers/${a.id}`, classmate, { body: "First answer" });
    expect((fixed.json() as QuestionDetail).answers.find((x) => x.id === a.id)).toMatchObject({
      html: "<p>First answer</p>",
      editedAt: expect.any(String),
    });
    expect((await call("DELETE", `/api/answers/${a.id}`, asker)).statusCode).toBe(403);
    expect(((await call("DELETE", `/api/answers/${a.id}`, classmate)).json() as QuestionDetail).answers).toHaveLength(
      0,
    );
    expect((await call("DELETE", `/api/questions/${q.id}`, classmate)).statusCode).toBe(403);
    expect((await call("DELETE", `/api/questions/${q.id}`, asker)).statusCode).toBe(200);
    expect((await call("GET", `/api/questions/${q.id}`, asker)).statusCode).toBe(404);
  });
});

describe("finding before asking", () => {
  it("searches the course's questions by meaning of words (stemmed), with the lesson each belongs to", async () => {
    const q = await ask(asker, "Magnesium supplements and sleeping problems", "Does magnesium help clients sleep?");
    const res = await call(
      "GET",
      `/api/courses/${COURSE}/questions?search=${encodeURIComponent("magnesium sleep")}`,
      classmate,
    );
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { id: string; lessonTitle: string }[];
    expect(items[0]).toMatchObject({ id: q.id, lessonTitle: "Lesson alpha-two" });
    // "sleeping" and "sleep" share a stem; a prefix finds it too.
    expect(
      (await call("GET", `/api/courses/${COURSE}/questions?search=magnes`, classmate))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).toContain(q.id);
    expect(
      (
        await call(
          "GET",
          `/api/courses/${COURSE}/questions?search=${encodeURIComponent("\"' OR 1=1 --  NEAR(")}`,
          classmate,
        )
      ).statusCode,
    ).toBe(200);
    expect((await call("GET", `/api/courses/${OTHER_COURSE}/questions?search=magnesium`, classmate)).statusCode).toBe(
      403,
    );
    expect((await call("GET", `/api/courses/${COURSE}/questions?search=magnesium`, outsider)).statusCode).toBe(403);
    expect((await call("GET", `/api/courses/${COURSE}/questions?search=magnesium`, undefined)).statusCode).toBe(401);
    expect((await call("GET", `/api/courses/${COURSE}/questions?search=magnesium`, staff)).statusCode).toBe(200);
    // An edit is searched by its new words; a hidden question is not found.
    await call("PATCH", `/api/questions/${q.id}`, asker, { title: "Zinc supplements and sleeping problems" });
    expect((await call("GET", `/api/courses/${COURSE}/questions?search=zinc`, classmate)).json().items[0]?.id).toBe(
      q.id,
    );
    await call("POST", `/api/admin/posts/${q.id}/hide`, admin);
    expect((await call("GET", `/api/courses/${COURSE}/questions?search=zinc`, classmate)).json().items).toEqual([]);
  });
});

describe("staff", () => {
  it("the unanswered queue lists questions without a staff answer, oldest first, with the waiting time", async () => {
    const first = await ask(asker, "Queue order question number one?");
    const second = await ask(asker, "Queue order question number two?");
    // Older than every question other tests seed, so both are on the queue's first page.
    const db = t.testDb.database.db;
    await db.updateTable("post").set({ createdAt: "2025-01-01T00:00:00.000Z" }).where("id", "=", first.id).execute();
    await db.updateTable("post").set({ createdAt: "2025-01-02T00:00:00.000Z" }).where("id", "=", second.id).execute();
    const queue = (await call("GET", "/api/staff/questions?status=unanswered", staff)).json().items as {
      id: string;
      waitingSeconds: number;
    }[];
    const ids = queue.map((i) => i.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(queue.find((i) => i.id === first.id)?.waitingSeconds).toBeGreaterThan(3600);
    // A learner's answer keeps it waiting; a staff answer takes it out.
    await answer(classmate, second.id, "Not staff.");
    expect(
      (await call("GET", "/api/staff/questions?status=unanswered", admin))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).toContain(second.id);
    await answer(staff, second.id, "Staff answer.");
    expect(
      (await call("GET", "/api/staff/questions?status=unanswered", admin))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).not.toContain(second.id);
    expect((await call("GET", "/api/staff/questions?status=unanswered", classmate)).statusCode).toBe(403);
    expect((await call("GET", "/api/staff/questions?status=unanswered", undefined)).statusCode).toBe(401);
    expect((await call("GET", "/api/staff/questions?status=answered", staff)).statusCode).toBe(400);
  });

  it("staff promote a question with its accepted answer into the lesson's common questions", async () => {
    const q = await ask(asker, "Should clients weigh themselves daily?");
    const { answer: a } = await answer(staff, q.id, "Weekly is *usually* enough.");
    expect((await call("POST", `/api/questions/${q.id}/promote`, staff)).statusCode).toBe(409);
    await call("POST", `/api/answers/${a.id}/accept`, asker);
    expect((await call("POST", `/api/questions/${q.id}/promote`, asker)).statusCode).toBe(403);
    expect((await call("POST", `/api/questions/${q.id}/promote`, staff)).json()).toEqual({ promoted: true });
    const common = await call("GET", `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`, classmate);
    expect(common.json().items).toContainEqual({
      questionId: q.id,
      title: "Should clients weigh themselves daily?",
      questionHtml: "<p>Is <strong>20 g</strong> enough?</p>",
      answerHtml: "<p>Weekly is <em>usually</em> enough.</p>",
    });
    expect((await call("GET", `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`, outsider)).statusCode).toBe(
      403,
    );
    // An edit of the accepted answer shows in the lesson at once.
    await call("PATCH", `/api/answers/${a.id}`, staff, { body: "Weekly is enough." });
    const after = (await call("GET", `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`, classmate)).json();
    expect(after.items.find((i: { questionId: string }) => i.questionId === q.id)?.answerHtml).toBe(
      "<p>Weekly is enough.</p>",
    );
    expect((await call("DELETE", `/api/questions/${q.id}/promote`, staff)).json()).toEqual({ promoted: false });
    expect(
      (await call("GET", `/api/courses/${COURSE}/lessons/${LESSON}/common-questions`, classmate))
        .json()
        .items.map((i: { questionId: string }) => i.questionId),
    ).not.toContain(q.id);
  });
});

describe("moderation", () => {
  it("learners report with a reason; admins see the queue and hide or restore; each leaves an audit entry", async () => {
    const q = await ask(asker, "Buy my detox tea, best prices?");
    expect((await call("POST", `/api/posts/${q.id}/report`, classmate, { reason: "nonsense" })).statusCode).toBe(400);
    expect((await call("POST", `/api/posts/${q.id}/report`, outsider, { reason: "spam" })).statusCode).toBe(404);
    for (let i = 0; i < 2; i++)
      expect(
        (await call("POST", `/api/posts/${q.id}/report`, classmate, { reason: "spam", note: "Advert" })).statusCode,
      ).toBe(200);
    expect((await call("GET", "/api/admin/posts", staff)).statusCode).toBe(403);
    const queue = (await call("GET", "/api/admin/posts", admin)).json() as ModerationQueue;
    expect(queue.items.find((i) => i.postId === q.id)?.reports).toEqual([
      { reason: "spam", note: "Advert", createdAt: expect.any(String) },
    ]);
    expect((await call("POST", `/api/admin/posts/${q.id}/hide`, staff)).statusCode).toBe(403);
    expect((await call("POST", `/api/admin/posts/${q.id}/hide`, admin)).json()).toEqual({
      postId: q.id,
      state: "hidden",
    });
    for (const who of [classmate, asker, admin]) expect((await list(who)).items.map((i) => i.id)).not.toContain(q.id);
    expect((await call("GET", `/api/questions/${q.id}`, classmate)).statusCode).toBe(404);
    expect(
      ((await call("GET", "/api/admin/posts", admin)).json() as ModerationQueue).items.map((i) => i.postId),
    ).not.toContain(q.id);
    expect((await call("POST", `/api/admin/posts/${q.id}/restore`, admin)).json()).toEqual({
      postId: q.id,
      state: "visible",
    });
    expect((await list(classmate)).items.map((i) => i.id)).toContain(q.id);
    const audit = await t.testDb.database.db
      .selectFrom("auditLog")
      .select("action")
      .where("target", "=", q.id)
      .orderBy("createdAt")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["post.hide", "post.restore"]);
  });

  it("a hidden question is gone for visitors of the preview lesson too, and back once restored", async () => {
    const q = await ask(asker, "Preview question to be hidden?", "Spam", PREVIEW);
    expect((await list(undefined, PREVIEW)).items.map((i) => i.id)).toContain(q.id);
    await call("POST", `/api/admin/posts/${q.id}/hide`, admin);
    expect((await list(undefined, PREVIEW)).items.map((i) => i.id)).not.toContain(q.id);
    expect((await call("GET", `/api/questions/${q.id}`)).statusCode).toBe(404);
    await call("POST", `/api/admin/posts/${q.id}/restore`, admin);
    expect((await list(undefined, PREVIEW)).items.map((i) => i.id)).toContain(q.id);
  });

  it("an admin suspends a learner from posting (audit entry, an e-mail saying why) and lifts it", async () => {
    const noisy = await learner({ firstName: "Nia", lastName: "Noisy" });
    const url = `/api/admin/learners/${noisy.id}/posting`;
    expect((await call("POST", url, staff, { suspended: true, reason: "Spam" })).statusCode).toBe(403);
    expect((await call("POST", url, admin, { suspended: true, reason: "" })).statusCode).toBe(400);
    expect(
      (await call("POST", url, admin, { suspended: true, reason: "Repeated adverts <b>again</b>" })).json(),
    ).toEqual({ userId: noisy.id, suspended: true });
    const refused = await call("POST", lessonUrl(), noisy, { title: "Can I still post this?", body: "x" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/suspended/);
    expect((await list(noisy)).postingRefusal).toMatch(/suspended/);
    const mail = (await mailsTo(noisy)).find((m) => /Subject: You can no longer post/.test(m.raw));
    expect(decoded(mail?.raw ?? "")).toContain("Repeated adverts &lt;b&gt;again&lt;/b&gt;");
    await call("POST", url, admin, { suspended: false, reason: "Second chance" });
    expect((await call("POST", lessonUrl(), noisy, { title: "Can I post again now?", body: "x" })).statusCode).toBe(
      200,
    );
    const audit = await t.testDb.database.db
      .selectFrom("auditLog")
      .select("action")
      .where("target", "=", noisy.id)
      .orderBy("createdAt")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["posting.suspend", "posting.restore"]);
    expect(
      (await call("POST", `/api/admin/learners/${randomUUID()}/posting`, admin, { suspended: true, reason: "x" }))
        .statusCode,
    ).toBe(404);
  });

  it("a new account's first posts with links wait for moderation; approved, followers are told then", async () => {
    const fresh = await learner({ firstName: "Newt", lastName: "Comer" });
    const q = await ask(asker, "Any good reading on gut health?");
    const held = (
      await call("POST", `/api/questions/${q.id}/answers`, fresh, { body: "See https://example.com/gut" })
    ).json() as QuestionDetail;
    const mine = held.answers.find((a) => a.mine);
    expect(mine?.state).toBe("held");
    expect(
      ((await call("GET", `/api/questions/${q.id}`, classmate)).json() as QuestionDetail).answers.map((a) => a.id),
    ).not.toContain(mine?.id);
    expect(
      ((await call("GET", "/api/notifications", asker)).json() as Notifications).items.some(
        (n) => n.questionId === q.id,
      ),
    ).toBe(false);
    expect(
      ((await call("GET", "/api/admin/posts", admin)).json() as ModerationQueue).items.find(
        (i) => i.postId === mine?.id,
      )?.state,
    ).toBe("held");
    // Without a link, the same new account is published at once; staff links are never held.
    expect((await answer(fresh, q.id, "Plain words only.")).answer.state).toBe("visible");
    expect((await answer(staff, q.id, "Try [this](https://example.org).")).answer.state).toBe("visible");
    await call("POST", `/api/admin/posts/${mine?.id}/restore`, admin);
    const notices = ((await call("GET", "/api/notifications", asker)).json() as Notifications).items.filter(
      (n) => n.questionId === q.id,
    );
    // One for each published answer (the plain one, the staff one, the approved one).
    expect(notices).toHaveLength(3);
    // Hidden and restored again: not told twice.
    await call("POST", `/api/admin/posts/${mine?.id}/hide`, admin);
    await call("POST", `/api/admin/posts/${mine?.id}/restore`, admin);
    expect(
      ((await call("GET", "/api/notifications", asker)).json() as Notifications).items.filter(
        (n) => n.questionId === q.id,
      ),
    ).toHaveLength(3);
  });

  it("an account with three published posts is no longer new: its links are published", async () => {
    const regular = await learner({ firstName: "Reg", lastName: "Ular" });
    for (let i = 0; i < 3; i++) await ask(regular, `Plain question number ${i} here?`);
    const linked = await ask(regular, "Question with a link in it?", "Read https://example.com first");
    expect(linked.state).toBe("visible");
    const other = await learner({ firstName: "Two", lastName: "Posts" });
    for (let i = 0; i < 2; i++) await ask(other, `Plain question number ${i} there?`);
    expect((await ask(other, "Linked question, third post?", "Read https://example.com")).state).toBe("held");
  });
});

describe("safety", () => {
  it(`posting is limited to ${POSTS_PER_WINDOW} posts per account in the window (the next gets 429)`, async () => {
    const busy = await learner({ firstName: "Busy", lastName: "Bee" });
    for (let i = 0; i < POSTS_PER_WINDOW; i++) await ask(busy, `Rate limited question ${i}?`);
    const refused = await call("POST", lessonUrl(), busy, { title: "One question too many?", body: "x" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Try again/);
    // Another account is not affected.
    await ask(classmate, "Unaffected by someone else's limit?");
  });

  const ATTACKS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    "<svg/onload=alert(1)>",
    '<iframe src="https://evil.example"></iframe>',
    '"><script>alert(1)</script>',
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="https://ok.example" onclick="alert(1)" style="color:red">ok</a>',
    "![x](https://evil.example/x.png)",
  ];
  // Markup that runs or loads something (escaped text such as "&lt;svg onload=...&gt;" is harmless).
  const UNSAFE = /<(script|img|svg|iframe)\b|<[^>]*\s(on\w+|style)\s*=|href="(javascript|data):/i;

  it("no field carries script into a page's HTML or an e-mail", async () => {
    const hacker = await learner({ firstName: "<script>alert(1)</script>", lastName: "<img src=x onerror=alert(1)>" });
    for (let i = 0; i < 3; i++) await ask(hacker, `Warm-up question ${i} please?`);
    for (const attack of ATTACKS) {
      for (const user of [hacker, staff]) await t.app.deps.counters.clear(`questions:post:${user.id}`);
      const q = await ask(staff, `Title ${attack}`.slice(0, 150), attack);
      expect(q.html).not.toMatch(UNSAFE);
      const { detail } = await answer(hacker, q.id, attack);
      for (const a of detail.answers) expect(a.html).not.toMatch(UNSAFE);
      const preview = await call("POST", "/api/posts/preview", hacker, { body: attack });
      expect(preview.json().html).not.toMatch(UNSAFE);
      await call("POST", `/api/posts/${q.id}/report`, hacker, { reason: "other", note: attack });
    }
    const e = await call("POST", lessonUrl(), hacker, { title: "Edited later, safely?", body: "fine" });
    const edited = await call("PATCH", `/api/questions/${e.json().id}`, hacker, { body: ATTACKS.join("\n\n") });
    expect(edited.json().html).not.toMatch(UNSAFE);
    // The staff asker's mail carries the answers as text only.
    const mails = await mailsTo(staff);
    expect(mails.length).toBeGreaterThan(ATTACKS.length);
    for (const mail of mails) {
      // The HTML part: the plain-text part shows "<script>" as the characters it is.
      const html = decoded(mail.raw).split(/Content-Type: text\/html/i)[1] ?? "";
      expect(html).toContain("</html>");
      // The layout's own inline styles are the message's; no post adds an element or a handler.
      expect(html).not.toMatch(/<(script|img|svg|iframe)\b|<[^>]*\son\w+\s*=|href="(javascript|data):/i);
    }
    // The name is shown as text by the client; the server never puts it in HTML.
    const names = (await list(classmate)).items.filter((i) => i.author.name.startsWith("<script>"));
    expect(names.length).toBeGreaterThan(0);
    const queue = (await call("GET", "/api/admin/posts", admin)).json() as ModerationQueue;
    for (const item of queue.items) expect(item.html).not.toMatch(UNSAFE);
  });

  it("the preview renders the Markdown subset: paragraphs, lists, bold, italic, links, code; no images", async () => {
    const res = await call("POST", "/api/posts/preview", asker, {
      body: "Hi **b** _i_ `c`\n\n- one\n- two\n\n[l](https://x.example)\n\n# Big",
    });
    expect(res.json()).toEqual({
      html: '<p>Hi <strong>b</strong> <em>i</em> <code>c</code></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><a href="https://x.example" rel="nofollow ugc noopener noreferrer">l</a></p>\n<p>Big</p>',
      hasLinks: true,
    });
    expect((await call("POST", "/api/posts/preview", undefined, { body: "x" })).statusCode).toBe(401);
  });
});

describe("data rights", () => {
  it("the export includes the learner's posts; deletion removes their answers and questions, keeping others' answers", async () => {
    const leaving = await learner({ firstName: "Lea", lastName: "Ving" });
    const alone = await ask(leaving, "A question nobody answered yet?");
    const answered = await ask(leaving, "A question a classmate answered?");
    const { answer: kept } = await answer(classmate, answered.id, "My answer stays.");
    const q = await ask(asker, "Someone else's question here?");
    const { answer: theirs } = await answer(leaving, q.id, "Leaving soon, but here's an answer.");
    await call("POST", `/api/answers/${theirs.id}/accept`, asker);
    await call("POST", `/api/questions/${q.id}/upvote`, leaving);
    const exported = (await call("GET", "/api/account/export", leaving)).json();
    expect(exported.posts.map((p: { id: string }) => p.id).toSorted()).toEqual(
      [alone.id, answered.id, theirs.id].toSorted(),
    );
    expect(exported.questionVotes).toHaveLength(1);
    const del = await call("POST", "/api/account/delete", leaving, { password: leaving.password });
    expect(del.statusCode, del.body).toBe(200);
    expect((await call("GET", `/api/questions/${alone.id}`, classmate)).statusCode).toBe(404);
    const anon = (await call("GET", `/api/questions/${answered.id}`, classmate)).json() as QuestionDetail;
    expect(anon).toMatchObject({ title: "Removed question", author: { name: "Former learner" } });
    expect(anon.answers.map((a) => a.id)).toEqual([kept.id]);
    const other = (await call("GET", `/api/questions/${q.id}`, classmate)).json() as QuestionDetail;
    expect(other).toMatchObject({ acceptedAnswerId: null, answers: [], upvotes: 0 });
  });
});
