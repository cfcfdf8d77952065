import type { StorageConfig } from "../config.ts";
import { type FileStorage, folderStorage } from "./file-storage.ts";
import { s3Storage } from "./s3-storage.ts";

/** The storage the settings ask for (decision 0039). */
export function storageFor(config: StorageConfig): FileStorage {
  return config.kind === "s3" ? s3Storage(config) : folderStorage(config.dir);
}
