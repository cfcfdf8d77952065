import { statSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_ENROLLED } from "#server/modules/courses/course-access.ts";
import type { LearnerPractical } from "#shared/schemas/practical.ts";
import { completeCourse } from "../setup/assessments.ts";
import { SAMPLE_FILES } from "../setup/practical.ts";
import { createTestApp, enrol, signUpUser, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

// Uploads over a real socket (decision 0051): who may submit is decided before the body is read, and
// a file goes to storage as it arrives instead of into memory.
const COURSE = "fixture-practical";
const MB = 1024 * 1024;
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ practical: true, env: { PRACTICAL_MAX_FILE_MB: "200" } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t?.close());

const BOUNDARY = "----streamed-upload";
// The confirmations, the text, a short recording (the course scores a conversation), then the large file's head.
const head = (size: number) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="consent"\r\n\r\nyes\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="redFlag"\r\n\r\nyes\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="text"\r\n\r\nMy session, recorded.\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="recording.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
    ),
    SAMPLE_FILES.mp3,
    Buffer.from(
      `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="session.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
  ]).subarray(0, size);
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** Opens an upload of `fileBytes` bytes of text; the caller writes the body. */
function openUpload(cookie: string, fileBytes: number) {
  const length = head(Number.POSITIVE_INFINITY).length + fileBytes + tail.length;
  const req = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: `/api/practical/${COURSE}`,
    headers: {
      origin: TEST_ORIGIN,
      cookie,
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "content-length": String(length),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res: IncomingMessage) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
  return { req, response };
}

describe("practical uploads", () => {
  it("refuses a learner who may not submit before reading the body: the answer comes while it is unsent", async () => {
    const outsider = await signUpUser(t.app);
    const { req, response } = openUpload(outsider.cookie, 60 * MB);
    // Only the first part of the body goes out; the rest is never sent.
    req.write(head(Number.POSITIVE_INFINITY));
    req.write(Buffer.alloc(64 * 1024, "a"));
    // Bounded: a server that waits for the body never answers, and the test fails instead of hanging.
    const unanswered = new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000).unref?.());
    const first = await Promise.race([response, unanswered]);
    req.destroy();
    expect(first, "no answer while the body was still unsent: the server waited to read it").not.toBeNull();
    expect(first?.status).toBe(403);
    expect(JSON.parse(first?.body ?? "{}").message).toBe(NOT_ENROLLED);
  }, 60_000);

  it("streams a large file to storage: the server's memory grows far less than the file", async () => {
    const learner = await signUpUser(t.app);
    await enrol(t, learner, COURSE);
    await completeCourse(t.app, learner.cookie, COURSE);
    const fileBytes = 96 * MB;
    const { req, response } = openUpload(learner.cookie, fileBytes);
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 2);
    const chunk = Buffer.alloc(256 * 1024, "a");
    req.write(head(Number.POSITIVE_INFINITY));
    for (let sent = 0; sent < fileBytes; sent += chunk.length) {
      if (!req.write(chunk)) await new Promise((resolve) => req.once("drain", resolve));
    }
    req.end(tail);
    const res = await response;
    clearInterval(sampler);
    expect(res.status, res.body).toBe(200);
    const practical = JSON.parse(res.body) as LearnerPractical;
    const file = practical.submissions.at(-1)?.files.find((f) => f.name === "session.txt");
    expect(file).toMatchObject({ name: "session.txt", contentType: "text/plain", size: fileBytes });
    const stored = await t.testDb.database.db
      .selectFrom("practicalFile")
      .select("storageKey")
      .where("id", "=", file!.id)
      .executeTakeFirstOrThrow();
    const dir = t.config.storage.kind === "folder" ? t.config.storage.dir : "";
    expect(statSync(join(dir, stored.storageKey)).size).toBe(fileBytes);
    // Buffered, the file alone would add 96 MB (twice that while its pieces are joined).
    expect(peak - baseline).toBeLessThan(24 * MB);
  }, 120_000);
});
