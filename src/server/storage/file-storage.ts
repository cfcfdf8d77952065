import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";

/**
 * Where uploaded files live. One interface: a folder under data/ by default; an S3-compatible
 * object store can implement the same three calls (docs/decisions/0026).
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

/** Keys are the server's own (`practical/<uuid>`); anything else is refused, so no key reaches outside the folder. */
const KEY = /^[a-z]+\/[0-9a-f-]{36}$/;

export function folderStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid storage key '${key}'`);
    const path = join(base, key);
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
    get: (key) => readFile(pathOf(key)),
    remove: (key) => rm(pathOf(key), { force: true }),
  };
}
