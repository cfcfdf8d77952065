import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONE_OFF_JOBS_KEPT_MS, pruneExpiredRows } from "#server/jobs/prune.ts";
import { createTestApp, signUpUser, type TestApp } from "../setup/test-app.ts";

// Job, hit-counter, rate-limit, token and session tables must not grow without bound: the hourly
// prune removes what has ended and keeps what still counts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ content: false });
});
afterAll(async () => t?.close());

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe("pruning", () => {
  it("removes ended windows, spent rate-limit rows, expired tokens and sessions, and old finished jobs", async () => {
    const db = t.testDb.database.db;
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const user = await signUpUser(t.app);

    await db
      .insertInto("hitCounter")
      .values([
        { key: "old-window", count: 3, windowEndsAt: now - HOUR },
        { key: "open-window", count: 3, windowEndsAt: now + HOUR },
      ])
      .execute();
    await db
      .insertInto("rateLimit")
      .values([
        { id: "rl-old", key: "203.0.113.1|/sign-in/email", count: 2, lastRequest: now - 2 * DAY },
        { id: "rl-new", key: "203.0.113.2|/sign-in/email", count: 2, lastRequest: now - HOUR },
      ])
      .execute();
    const token = (id: string, expiresAt: number) => ({
      id,
      identifier: `reset-password:${id}`,
      value: user.id,
      expiresAt: iso(expiresAt),
      createdAt: iso(now - DAY),
      updatedAt: iso(now - DAY),
    });
    await db
      .insertInto("verification")
      .values([token("token-expired", now - HOUR), token("token-valid", now + HOUR)])
      .execute();
    await db
      .insertInto("session")
      .values({
        id: "session-expired",
        token: "expired-token",
        userId: user.id,
        expiresAt: iso(now - HOUR),
        createdAt: iso(now - 31 * DAY),
        updatedAt: iso(now - 31 * DAY),
        ipAddress: null,
        userAgent: null,
      })
      .execute();

    // One-off jobs: finished exactly at the line stays, a moment past it goes; a queued one always stays.
    const job = (id: string, status: "done" | "failed" | "queued", finishedAt: number | null) => ({
      id,
      name: "prune-probe",
      key: null,
      payload: "{}",
      status,
      runAt: iso(now - 40 * DAY),
      lastError: null,
      createdAt: iso(now - 40 * DAY),
      finishedAt: finishedAt === null ? null : iso(finishedAt),
    });
    await db
      .insertInto("oneOffJob")
      .values([
        job("job-done-old", "done", now - ONE_OFF_JOBS_KEPT_MS - 1),
        job("job-failed-old", "failed", now - ONE_OFF_JOBS_KEPT_MS - 1),
        job("job-at-line", "done", now - ONE_OFF_JOBS_KEPT_MS),
        job("job-queued", "queued", null),
      ])
      .execute();

    const pruned = await pruneExpiredRows(db, now);
    expect(pruned).toEqual({ hitCounters: 1, rateLimits: 1, verifications: 1, sessions: 1, oneOffJobs: 2 });
    expect(
      (await db.selectFrom("oneOffJob").select("id").where("name", "=", "prune-probe").orderBy("id").execute()).map(
        (r) => r.id,
      ),
    ).toEqual(["job-at-line", "job-queued"]);

    expect((await db.selectFrom("hitCounter").select("key").execute()).map((r) => r.key)).toContain("open-window");
    expect((await db.selectFrom("hitCounter").select("key").execute()).map((r) => r.key)).not.toContain("old-window");
    expect((await db.selectFrom("rateLimit").select("id").execute()).map((r) => r.id)).toEqual(
      expect.arrayContaining(["rl-new"]),
    );
    expect((await db.selectFrom("verification").select("id").execute()).map((r) => r.id)).toEqual(["token-valid"]);
    // The learner's own live session stays.
    expect((await db.selectFrom("session").select("id").where("userId", "=", user.id).execute()).length).toBe(1);
    // Nothing left to prune: a second run removes nothing.
    expect(await pruneExpiredRows(db, now)).toEqual({
      hitCounters: 0,
      rateLimits: 0,
      verifications: 0,
      sessions: 0,
      oneOffJobs: 0,
    });
  });
});
