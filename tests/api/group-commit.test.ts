import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { durableWrite, groupCommitCount, writeTransaction } from "#server/db/fast-paths.ts";
import { createTestDatabase, type TestDatabase, testEngine } from "../setup/test-database.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

const row = (key: string) => ({ id: key, key, count: 1, lastRequest: 0 });

describe("durable writes arriving together", () => {
  it("stores every write, fails only the one whose statement fails, and keeps nothing of it", async () => {
    const db = t.database.db;
    await db.insertInto("rateLimit").values(row("taken")).execute();
    const commitsBefore = groupCommitCount(db);
    const results = await Promise.allSettled([
      writeTransaction(db, (trx) => trx.insertInto("rateLimit").values(row("w1")).execute()),
      writeTransaction(db, async (trx) => {
        await trx.insertInto("rateLimit").values(row("w2-partial")).execute();
        // Unique key already taken: this write fails, and its first insert goes with it.
        await trx.insertInto("rateLimit").values(row("taken")).execute();
      }),
      writeTransaction(db, (trx) => trx.insertInto("rateLimit").values(row("w3")).execute()),
      writeTransaction(db, async () => {
        throw new Error("refused by the service");
      }),
      writeTransaction(db, (trx) => trx.insertInto("rateLimit").values(row("w5")).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled"]);
    expect((results[3] as PromiseRejectedResult).reason.message).toBe("refused by the service");
    const mine = ["taken", "w1", "w2-partial", "w3", "w5"];
    const keys = (await db.selectFrom("rateLimit").select("key").where("key", "in", mine).orderBy("key").execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(["taken", "w1", "w3", "w5"]);
    // SQLite: the five writes shared one commit (one fsync).
    if (testEngine === "sqlite") expect(groupCommitCount(db)).toBe((commitsBefore ?? 0) + 1);
  });

  it("a lone write that fails leaves nothing behind, and the next write still commits", async () => {
    const db = t.database.db;
    await expect(
      writeTransaction(db, async (trx) => {
        await trx.insertInto("rateLimit").values(row("lone")).execute();
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    await writeTransaction(db, (trx) => trx.insertInto("rateLimit").values(row("after")).execute());
    const keys = (await db.selectFrom("rateLimit").select("key").where("key", "in", ["lone", "after"]).execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(["after"]);
  });

  it("single-statement writes (a profile update) sent together are each stored, sharing one commit on SQLite", async () => {
    const db = t.database.db;
    const commitsBefore = groupCommitCount(db);
    const keys = ["s1", "s2", "s3"];
    await Promise.all(
      keys.map((key) => durableWrite(db, (handle) => handle.insertInto("rateLimit").values(row(key)).execute())),
    );
    const stored = (
      await db.selectFrom("rateLimit").select("key").where("key", "in", keys).orderBy("key").execute()
    ).map((r) => r.key);
    expect(stored).toEqual(keys);
    if (testEngine === "sqlite") expect(groupCommitCount(db)).toBe((commitsBefore ?? 0) + 1);
  });
});
