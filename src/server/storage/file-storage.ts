import { createWriteStream } from "node:fs";
import { mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { errorField } from "../errors.ts";

/**
 * Where uploaded files live. One interface, two implementations chosen by configuration
 * (docs/decisions/0026, 0039): a folder under data/ by default, a bucket of an S3-compatible object
 * store when S3_BUCKET is set. `storageFor` (storage.ts) picks one; `tests/unit/file-storage.test.ts` holds both to one contract.
 */
export interface FileStorage {
  /** Stores the bytes under a fresh key. */
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Stores what the stream carries under a fresh key as it arrives, never holding it all in memory
   * (an upload of up to 200 MB, decision 0051). A stream that fails leaves nothing under the key.
   */
  putStream(key: string, data: Readable): Promise<void>;
  /** The bytes stored under the key; rejects with FileMissingError when there are none. */
  get(key: string): Promise<Buffer>;
  /** How many bytes are stored under the key; rejects with FileMissingError when there are none. */
  size(key: string): Promise<number>;
  /**
   * Bytes `start` to `end` (both included, within the stored size) as a stream, so a player seeking
   * in a long recording reads only that part; rejects with FileMissingError when there are none.
   */
  readRange(key: string, start: number, end: number): Promise<Readable>;
  /** Removes the key's bytes; removing a missing key succeeds. */
  remove(key: string): Promise<void>;
  /** Lets go of connections (the app calls it when it closes). */
  close?(): void;
}

export class FileMissingError extends Error {
  constructor(key: string) {
    super(`no stored file under '${key}'`);
    this.name = "FileMissingError";
  }
}

/** Keys are the server's own (`practical/<uuid>`); anything else is refused, so no key reaches outside its place. */
const KEY = /^[a-z]+\/[0-9a-f-]{36}$/;

export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid storage key '${key}'`);
  return key;
}

export function folderStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = join(base, checkedKey(key));
    if (!path.startsWith(base + sep)) throw new Error(`invalid storage key '${key}'`);
    return path;
  };
  return {
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written once under a fresh key: never overwrite.
      await writeFile(path, data, { flag: "wx", mode: 0o600 });
    },
    async putStream(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      try {
        await pipeline(data, createWriteStream(path, { flags: "wx", mode: 0o600 }));
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if (errorField(error, "code") === "ENOENT") throw new FileMissingError(key);
        throw error;
      }
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch (error) {
        if (errorField(error, "code") === "ENOENT") throw new FileMissingError(key);
        throw error;
      }
    },
    async readRange(key, start, end) {
      try {
        // Opened first, so a missing file rejects here rather than failing the stream later.
        const handle = await open(pathOf(key));
        return handle.createReadStream({ start, end });
      } catch (error) {
        if (errorField(error, "code") === "ENOENT") throw new FileMissingError(key);
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
