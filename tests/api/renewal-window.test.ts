import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { RENEWAL_CLOSES_DAYS_AFTER_EXPIRY, RENEWAL_OPENS_DAYS_BEFORE_EXPIRY } from "#shared/constants.ts";
import { giveCertificate, newLearner } from "../setup/factories.ts";
import { createTestApp, request } from "../setup/test-app.ts";

const t = await createTestApp();
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());
const db = () => t.testDb.database.db;
const DAY = 86_400_000;

/** A holder whose certificate expires 0.4 ms after `expiry` (a whole millisecond): stored with sub-millisecond digits. */
async function holderExpiringJustAfter(expiry: number) {
  const user = await newLearner(t);
  const certificateId = await giveCertificate(db(), user);
  const expiresAt = new Date(expiry).toISOString().replace("Z", "4Z");
  await db().updateTable("certificate").set({ expiresAt }).where("certificateId", "=", certificateId).execute();
  return user;
}

/** Starts the recertification exam with the clock (Date only) at `now`. */
async function startAt(now: number, cookie: string) {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    return await request(t.app, "POST", "/api/recertification/fixture-basics/attempt", { cookie });
  } finally {
    vi.useRealTimers();
  }
}

// The window is [expiry - 90 days, expiry + 1 year): the clock moves in whole milliseconds, so an
// expiry 0.4 ms after a millisecond opens the window one millisecond after the one it would be cut to.
describe("the renewal window of an expiry stored finer than a millisecond", () => {
  const at = Math.floor(Date.now() / 1000) * 1000 + 5000;

  it("is still closed on the millisecond before it opens, and open on the next", async () => {
    const expiry = at + RENEWAL_OPENS_DAYS_BEFORE_EXPIRY * DAY;
    const early = await holderExpiringJustAfter(expiry);
    const before = await startAt(at, early.cookie);
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toMatch(/Recertification opens on/);
    const onTime = await holderExpiringJustAfter(expiry);
    expect((await startAt(at + 1, onTime.cookie)).statusCode).toBe(200);
  });

  it("is still open on the millisecond its closing falls in, and closed on the next", async () => {
    const expiry = at - RENEWAL_CLOSES_DAYS_AFTER_EXPIRY * DAY;
    const last = await holderExpiringJustAfter(expiry);
    expect((await startAt(at, last.cookie)).statusCode).toBe(200);
    const late = await holderExpiringJustAfter(expiry);
    const after = await startAt(at + 1, late.cookie);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toMatch(/Recertification closed on/);
  });
});
