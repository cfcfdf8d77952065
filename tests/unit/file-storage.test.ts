import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/config.ts";
import { FileMissingError, type FileStorage } from "#server/storage/file-storage.ts";
import { storageFor } from "#server/storage/storage.ts";
import { type FakeS3, startFakeS3 } from "../setup/fake-s3.ts";

let s3: FakeS3;
const opened: FileStorage[] = [];
beforeAll(async () => {
  s3 = await startFakeS3(["academy-files"]);
});
afterAll(async () => {
  for (const storage of opened) storage.close?.();
  await s3?.close();
});

/** The storage the settings pick, as the app builds it. */
function fromSettings(env: Record<string, string>) {
  const config = loadConfig(env, mkdtempSync(join(tmpdir(), "storage-")));
  const storage = storageFor(config.storage);
  opened.push(storage);
  return { config, storage };
}

const freshKey = () => `practical/${randomUUID()}`;

const implementations: [string, () => FileStorage][] = [
  ["the folder (default)", () => fromSettings({}).storage],
  ["an S3-compatible bucket (S3_BUCKET)", () => fromSettings(s3.env("academy-files")).storage],
];

describe.each(implementations)("file storage contract: %s", (_name, make) => {
  it("gives back exactly the bytes it was given, binary and large alike", async () => {
    const storage = make();
    const small = Buffer.from("%PDF-1.4\n%\u00e2\u00e3\n");
    const large = randomBytes(3 * 1024 * 1024);
    const [a, b] = [freshKey(), freshKey()];
    await storage.put(a, small);
    await storage.put(b, large);
    expect((await storage.get(a)).equals(small)).toBe(true);
    expect((await storage.get(b)).equals(large)).toBe(true);
  });

  it("says a missing file is missing, removes a file for good, and removing a missing one succeeds", async () => {
    const storage = make();
    const key = freshKey();
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileMissingError);
    await storage.put(key, Buffer.from("notes"));
    await storage.remove(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileMissingError);
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it("tells the size and reads one byte range, first and last byte included, without the rest", async () => {
    const storage = make();
    const data = randomBytes(64 * 1024);
    const key = freshKey();
    await storage.put(key, data);
    expect(await storage.size(key)).toBe(data.length);
    const read = async (start: number, end: number) =>
      Buffer.concat(await (await storage.readRange(key, start, end)).toArray());
    expect((await read(0, 0)).equals(data.subarray(0, 1))).toBe(true);
    expect((await read(1000, 1999)).equals(data.subarray(1000, 2000))).toBe(true);
    expect((await read(data.length - 1, data.length - 1)).equals(data.subarray(-1))).toBe(true);
    expect((await read(0, data.length - 1)).equals(data)).toBe(true);
    const missing = freshKey();
    await expect(storage.size(missing)).rejects.toBeInstanceOf(FileMissingError);
    await expect(storage.readRange(missing, 0, 0)).rejects.toBeInstanceOf(FileMissingError);
  });

  it("refuses keys that are not its own, before anything is stored or read", async () => {
    const storage = make();
    for (const key of ["../secret", "practical/../../etc/passwd", "practical/x", "/practical/abc", ""]) {
      await expect(storage.put(key, Buffer.from("x"))).rejects.toThrow(/invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/invalid storage key/);
      await expect(storage.size(key)).rejects.toThrow(/invalid storage key/);
      await expect(storage.readRange(key, 0, 0)).rejects.toThrow(/invalid storage key/);
      await expect(storage.remove(key)).rejects.toThrow(/invalid storage key/);
    }
  });
});

describe("choosing the storage by settings", () => {
  it("keeps files in data/uploads (or UPLOADS_DIR) without S3_BUCKET, and in the bucket under S3_KEY_PREFIX with it", async () => {
    const folder = fromSettings({});
    expect(folder.config.storage).toEqual({ kind: "folder", dir: join(folder.config.dataDir, "uploads") });
    const key = freshKey();
    await folder.storage.put(key, Buffer.from("on disk"));
    expect(existsSync(join(folder.config.dataDir, "uploads", key))).toBe(true);

    const before = s3.objects.size;
    const bucket = fromSettings(s3.env("academy-files", { S3_KEY_PREFIX: "school-b/" }));
    await bucket.storage.put(key, Buffer.from("in the bucket"));
    expect(s3.objects.get(`academy-files/school-b/${key}`)?.toString()).toBe("in the bucket");
    expect(s3.objects.size).toBe(before + 1);
  });

  it("fails a request the store refuses (wrong secret, unknown bucket, outage) instead of pretending", async () => {
    const key = freshKey();
    const wrongSecret = fromSettings(s3.env("academy-files", { S3_SECRET_ACCESS_KEY: "not-the-secret" })).storage;
    await expect(wrongSecret.put(key, Buffer.from("x"))).rejects.toThrow(/signature does not match/);
    const noBucket = fromSettings(s3.env("no-such-bucket")).storage;
    await expect(noBucket.put(key, Buffer.from("x"))).rejects.toThrow(/bucket does not exist/);
    expect(s3.objects.has(`academy-files/${key}`)).toBe(false);

    const storage = fromSettings(s3.env("academy-files")).storage;
    await storage.put(key, Buffer.from("kept"));
    s3.failing = true;
    try {
      await expect(storage.get(key)).rejects.toThrow();
      await expect(storage.get(key)).rejects.not.toBeInstanceOf(FileMissingError);
    } finally {
      s3.failing = false;
    }
    expect((await storage.get(key)).toString()).toBe("kept");
  });
});
