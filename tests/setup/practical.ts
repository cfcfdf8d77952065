import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { deliverQueuedMail } from "./outbox.ts";
import { TEST_ORIGIN, type TestApp } from "./test-app.ts";

/** Files a practical submission may carry, by their real bytes. */
export const SAMPLE_FILES = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
  text: Buffer.from("Coach: What brings you here today?\nVolunteer: I want more energy in the afternoons.\n"),
  mp3: Buffer.concat([
    Buffer.from("ID3"),
    Buffer.from([3, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]),
    Buffer.alloc(600),
  ]),
  /** A PNG image, whatever name it is given. */
  png: Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex"),
};

export interface UploadFile {
  name: string;
  data: Buffer;
  type?: string;
}

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipartBody(fields: Record<string, string>, files: UploadFile[]) {
  const boundary = `----practical${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${
          file.type ?? "application/octet-stream"
        }\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

let submissions = 0;

/**
 * Submits practical work the way the course page does, each time from an address of its own: the
 * route's rate limit (20 a minute per address) is not what the callers test.
 */
export function submitPractical(
  app: FastifyInstance,
  cookie: string | undefined,
  courseId: string,
  fields: Record<string, string>,
  files: UploadFile[] = [],
) {
  const { payload, contentType } = multipartBody(fields, files);
  return app.inject({
    method: "POST",
    url: `/api/practical/${courseId}`,
    headers: { origin: TEST_ORIGIN, "content-type": contentType, ...(cookie ? { cookie } : {}) },
    remoteAddress: `192.0.2.${++submissions % 250}`,
    payload,
  });
}

/** Subjects of the messages sent so far (the outbox folder) addressed to this e-mail. */
export async function mailSubjectsTo(t: TestApp, email: string): Promise<string[]> {
  await deliverQueuedMail(t.app);
  const dir = t.config.mailOutboxDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => readFileSync(join(dir, file), "utf8").replace(/=\r?\n/g, ""))
    .filter((text) => text.includes(`To: ${email}`))
    .map((text) => /^Subject: (.*)$/m.exec(text)?.[1] ?? "");
}
