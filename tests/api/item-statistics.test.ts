import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUpItemResponses } from "#server/db/item-response-tally.ts";
import type { ItemStatistics } from "#shared/schemas/item-statistics.ts";
import { answerKey } from "../setup/assessments.ts";
import { must, take } from "../setup/must.ts";
import { createTestApp, request, signUpUser, type TestApp, type TestUser, verifyEmail } from "../setup/test-app.ts";

let t: TestApp;
let admin: TestUser;
let learner: TestUser;
const key = answerKey("fixture-basics", "alpha");
const [X, Y, Z, W] = take([...key.keys()], 4, "alpha questions");
const right = (q: string) => must(key.get(q), `the key of ${q}`);
const wrong = (q: string, i = 0) => must(["a", "b", "c", "d"].filter((o) => o !== key.get(q))[i], `wrong option ${i}`);

/** Stores attempts of a quiz (alpha by default) that answered `question` with `option` and scored `score`. */
async function seed(count: number, question: string, option: string, score: number, by = learner, moduleId = "alpha") {
  const now = new Date().toISOString();
  await t.testDb.database.db
    .insertInto("quizAttempt")
    .values(
      Array.from({ length: count }, () => ({
        id: randomUUID(),
        userId: by.id,
        courseId: "fixture-basics",
        moduleId,
        score,
        correctCount: 0,
        total: 6,
        passed: false,
        answers: JSON.stringify({ [question]: option }),
        createdAt: now,
      })),
    )
    .execute();
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: "stats@academy.example" } });
  admin = await signUpUser(t.app, { email: "stats@academy.example" });
  await verifyEmail(t, admin);
  learner = await signUpUser(t.app);
  // X: 20 right (score 80), 20 wrong (score 40: 10, 6 and 4 on the three distractors).
  await seed(20, X, right(X), 80);
  await seed(10, X, wrong(X, 0), 40);
  await seed(6, X, wrong(X, 1), 40);
  await seed(4, X, wrong(X, 2), 40);
  // Y: 38 of 40 right, every score 50 (no variance).
  await seed(38, Y, right(Y), 50);
  await seed(2, Y, wrong(Y), 50);
  // Z: 8 of 40 right, and those scored lower (30) than the rest (70).
  await seed(8, Z, right(Z), 30);
  await seed(32, Z, wrong(Z), 70);
  // W: 29 responses, one short of the minimum.
  await seed(29, W, right(W), 90);
});
afterAll(async () => t?.close());

const statistics = async () => {
  const res = await request(t.app, "GET", "/api/admin/item-statistics?courseId=fixture-basics", {
    cookie: admin.cookie,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as ItemStatistics;
};

describe("item statistics from stored attempts", () => {
  it("computes responses, difficulty, point-biserial, option counts and flags as worked by hand", async () => {
    const res = await request(t.app, "GET", "/api/admin/item-statistics?courseId=fixture-basics", {
      cookie: admin.cookie,
    });
    expect(res.statusCode).toBe(200);
    const stats = res.json() as ItemStatistics;
    const item = (q: string) =>
      must(
        stats.items.find((i) => i.assessment === "alpha" && i.questionId === q),
        `statistics of ${q}`,
      );
    // X: p = 20/40; scores mean 60, SD 20; (80 - 40) / 20 x sqrt(0.5 x 0.5) = 1.
    expect(item(X)).toMatchObject({ responses: 40, difficulty: 0.5, discrimination: 1, flags: [], enoughData: true });
    const counts = Object.fromEntries(item(X).options.map((o) => [o.id, o.count]));
    expect(counts).toEqual({ [right(X)]: 20, [wrong(X, 0)]: 10, [wrong(X, 1)]: 6, [wrong(X, 2)]: 4 });
    // Y: p = 0.95 (too easy); no score variance, so no correlation.
    expect(item(Y)).toMatchObject({ responses: 40, difficulty: 0.95, discrimination: null, flags: ["too-easy"] });
    // Z: p = 0.2; mean 62, SD 16; (30 - 70) / 16 x sqrt(0.2 x 0.8) = -1.
    expect(item(Z)).toMatchObject({ difficulty: 0.2, discrimination: -1, flags: ["too-hard", "low-discrimination"] });
    expect(item(W)).toMatchObject({
      responses: 29,
      difficulty: null,
      discrimination: null,
      flags: [],
      enoughData: false,
    });
    // Every item of every bank is listed, answered or not (alpha, beta and the exam: 15 each).
    expect(stats.items).toHaveLength(45);
    expect(stats.items.filter((i) => i.assessment === "exam")).toHaveLength(15);
  });

  it("exports the same figures as CSV, and refuses non-admins", async () => {
    const csv = await request(t.app, "GET", "/api/admin/item-statistics.csv?courseId=fixture-basics", {
      cookie: admin.cookie,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "course,assessment,question_id,question,responses,difficulty,discrimination,flags,option_a,option_b,option_c,option_d,key",
    );
    const line = lines.find((l) => l.startsWith(`fixture-basics,alpha,${Z},`))!;
    expect(line).toMatch(/,40,0\.2,-1,too-hard low-discrimination,/);
    expect(lines.find((l) => l.startsWith(`fixture-basics,alpha,${W},`))).toContain(
      ",29,not enough data,not enough data,",
    );
    expect(
      (await request(t.app, "GET", "/api/admin/item-statistics?courseId=fixture-basics", { cookie: learner.cookie }))
        .statusCode,
    ).toBe(403);
    expect(
      (await request(t.app, "GET", "/api/admin/item-statistics?courseId=nope", { cookie: admin.cookie })).statusCode,
    ).toBe(404);
  });

  it("keeps the same figures when the rollup moves attempts into running sums, and drops an erased learner's", async () => {
    const betaKey = answerKey("fixture-basics", "beta");
    const [V] = take([...betaKey.keys()], 1, "beta questions");
    const betaRight = must(betaKey.get(V), `the key of ${V}`);
    const betaWrong = must(
      ["a", "b", "c", "d"].find((o) => o !== betaRight),
      "a wrong option",
    );
    const other = await signUpUser(t.app);
    const item = (stats: ItemStatistics, assessment: string, q: string) =>
      stats.items.find((i) => i.assessment === assessment && i.questionId === q)!;

    await seed(12, V, betaRight, 100, other, "beta");
    const before = await statistics();
    expect(await rollUpItemResponses(t.testDb.database.db)).toBeGreaterThanOrEqual(12);
    expect(await statistics()).toEqual(before);

    // Half in the running sums, half not yet: V has 24 right (12 at 100, 12 at 80) and 16 wrong at 40.
    await seed(12, V, betaRight, 80, other, "beta");
    await seed(16, V, betaWrong, 40, other, "beta");
    // p = 0.6; mean 70, variance 222,400 / 40 - 70² = 660; (90 - 40) / sqrt(660) x sqrt(0.6 x 0.4) = 0.953.
    const mixed = await statistics();
    expect(item(mixed, "beta", V)).toMatchObject({ responses: 40, difficulty: 0.6, discrimination: 0.953, flags: [] });
    await rollUpItemResponses(t.testDb.database.db);
    expect(await statistics()).toEqual(mixed);

    const erased = await request(t.app, "POST", "/api/account/delete", {
      cookie: other.cookie,
      payload: { password: other.password },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const after = await statistics();
    expect(item(after, "beta", V)).toMatchObject({ responses: 0, difficulty: null, enoughData: false });
    expect(item(after, "beta", V).options.every((o) => o.count === 0)).toBe(true);
    expect(item(after, "alpha", X)).toEqual(item(before, "alpha", X));
  });
});
