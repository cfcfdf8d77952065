import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { StorageConfig } from "../config.ts";
import { errorField } from "../errors.ts";
import { checkedKey, FileMissingError, type FileStorage } from "./file-storage.ts";

type S3Config = Extract<StorageConfig, { kind: "s3" }>;

/**
 * Uploaded files in a bucket of any S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...), through
 * the AWS SDK v3 (decision 0039). Objects are private: the app reads them back and serves them itself,
 * so the same access check guards them as with the folder.
 */
export function s3Storage(config: S3Config): FileStorage & { close(): void } {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksums only where S3 requires them: several S3-compatible services refuse the SDK's newer
    // default (CRC32 in an aws-chunked trailer). TLS already guards the bytes in transit.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // An unreachable store fails the request in seconds instead of holding it open.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const objectKey = (key: string) => config.keyPrefix + checkedKey(key);
  return {
    async put(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.length,
          ContentType: "application/octet-stream",
        }),
      );
    },
    // S3 takes a body of known length in one request: the stream goes to a file on disk as it arrives
    // (bounded memory), then from that file to the bucket, and the file is removed.
    async putStream(key, data: Readable) {
      const dir = await mkdtemp(join(tmpdir(), "academy-upload-"));
      try {
        const spool = join(dir, "body");
        await pipeline(data, createWriteStream(spool, { mode: 0o600 }));
        const { size } = await stat(spool);
        await client.send(
          new PutObjectCommand({
            Bucket: config.bucket,
            Key: objectKey(key),
            Body: createReadStream(spool),
            ContentLength: size,
            ContentType: "application/octet-stream",
          }),
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
        if (!object.Body) throw new FileMissingError(key);
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey || errorField(error, "name") === "NoSuchKey") throw new FileMissingError(key);
        throw error;
      }
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
        return head.ContentLength ?? 0;
      } catch (error) {
        // A HEAD has no body, so a missing object comes back as a bare 404 ("NotFound").
        if (errorField(error, "name") === "NotFound" || errorField(error, "name") === "NoSuchKey")
          throw new FileMissingError(key);
        throw error;
      }
    },
    async readRange(key, start, end) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key), Range: `bytes=${start}-${end}` }),
        );
        if (!object.Body) throw new FileMissingError(key);
        // In Node the SDK's body is a readable stream; the bytes are passed on as they arrive.
        return object.Body instanceof Readable ? object.Body : Readable.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey || errorField(error, "name") === "NoSuchKey") throw new FileMissingError(key);
        throw error;
      }
    },
    async remove(key) {
      // S3 answers a delete of a missing key with success, as the folder's rm({ force: true }) does.
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
    },
    close: () => client.destroy(),
  };
}
