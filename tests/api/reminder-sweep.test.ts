import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { JobRunner } from "#server/jobs/job-runner.ts";
import { REMINDER_BATCH, sweepCertificateReminders } from "#server/modules/certificates/certificate-reminders.ts";
import { CourseCatalogue } from "#server/modules/courses/course-catalogue.ts";
import { createTestApp } from "../setup/test-app.ts";

// The reminder sweep with more certificates due than one page holds (issue 37: 520 due, sweeps sent
// 500, then 0, 0, 0, and the certificates about to expire were never reminded).
const manualJobs = (): JobRunner => ({ every() {}, start: async () => {}, stop: async () => {} });
const t = await createTestApp({ createJobs: () => manualJobs });
afterAll(async () => t?.close());

const DAY = 86_400_000;
const COURSES = ["fixture-basics", "fixture-other", "fixture-soon"];
const db = () => t.testDb.database.db;
const sweep = (now = new Date()) =>
  sweepCertificateReminders(
    {
      db: db(),
      config: t.config,
      catalogue: () => new CourseCatalogue(db()).get(),
    },
    now,
  );

/** Inserts rows 100 at a time (under SQLite's limit of bound values per statement). */
async function inChunks<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 100) await insert(rows.slice(i, i + 100));
}

/** Holders with one certificate per fixture course, each expiring at the time `expiresAt(i)` gives. */
async function holders(count: number, expiresAt: (i: number) => Date): Promise<string[]> {
  const now = new Date().toISOString();
  const run = randomUUID().slice(0, 8);
  const users = Array.from({ length: Math.ceil(count / COURSES.length) }, (_, i) => ({
    id: `sweep-${run}-${i}`,
    name: "Sweep Holder",
    email: `sweep-${run}-${i}@example.com`,
    emailVerified: true,
    image: null,
    firstName: "Sweep",
    lastName: `Holder ${i}`,
    role: "learner",
    createdAt: now,
    updatedAt: now,
  }));
  await inChunks(users, (chunk) => db().insertInto("user").values(chunk).execute());
  const certificates = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      id,
      certificateId: id,
      userId: users[Math.floor(i / COURSES.length)]!.id,
      courseId: COURSES[i % COURSES.length]!,
      firstName: "Sweep",
      lastName: "Holder",
      completedAt: now,
      issuedAt: now,
      expiresAt: expiresAt(i).toISOString(),
      revokedAt: null,
      revokedReason: null,
    };
  });
  await inChunks(certificates, (chunk) => db().insertInto("certificate").values(chunk).execute());
  return certificates.map((c) => c.certificateId);
}

const remindersFor = async (certificateIds: string[]) => {
  const rows = await db()
    .selectFrom("certificateReminder")
    .select(["certificateId", "kind"])
    .where("certificateId", "in", certificateIds)
    .execute();
  return rows;
};

describe("the certificate reminder sweep", () => {
  it("reminds every due certificate once, however many are due, the soon-expiring ones too", async () => {
    const now = new Date();
    // More than a page of certificates that expired months ago (still renewable), first by expiry...
    const lapsed = await holders(REMINDER_BATCH + 10, (i) => new Date(now.getTime() - (200 * DAY - i * 1000)));
    // ...and the ones about to expire behind them.
    const soon = await holders(15, (i) => new Date(now.getTime() + 5 * DAY + i * 1000));
    expect(await sweep(now)).toBe(REMINDER_BATCH + 10 + 15);
    expect(await remindersFor(soon)).toHaveLength(15);
    expect((await remindersFor(soon)).every((r) => r.kind === "7-days")).toBe(true);
    expect(await remindersFor(lapsed)).toHaveLength(REMINDER_BATCH + 10);
    const queued = await db()
      .selectFrom("outboxEmail")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("template", "=", "certificate-reminder")
      .where("userId", "in", (eb) =>
        eb
          .selectFrom("certificate")
          .select("userId")
          .where("certificateId", "in", [...lapsed, ...soon]),
      )
      .executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(REMINDER_BATCH + 10 + 15);
    // The next sweeps find nothing new; a certificate that falls due later is still reminded.
    expect(await sweep(now)).toBe(0);
    const later = await holders(3, () => new Date(now.getTime() + 6 * DAY));
    expect(await sweep(now)).toBe(3);
    expect(await remindersFor(later)).toHaveLength(3);
  });

  it("takes a certificate into a band at its threshold, not a millisecond before, and expired ones up to renewal's end", async () => {
    const now = new Date(Date.now() + 1000 * DAY);
    const at = (ms: number) => () => new Date(now.getTime() + ms);
    const [atSeven] = await holders(1, at(7 * DAY));
    const [pastSeven] = await holders(1, at(7 * DAY + 1));
    const [atNow] = await holders(1, at(0));
    const [renewable] = await holders(1, at(-365 * DAY + 1));
    const [closed] = await holders(1, at(-365 * DAY));
    await sweep(now);
    const kindOf = async (id: string | undefined) => (await remindersFor([id!])).map((r) => r.kind);
    expect(await kindOf(atSeven)).toEqual(["7-days"]);
    expect(await kindOf(pastSeven)).toEqual(["30-days"]);
    expect(await kindOf(atNow)).toEqual(["expired"]);
    expect(await kindOf(renewable)).toEqual(["expired"]);
    expect(await kindOf(closed)).toEqual([]);
  });
});
