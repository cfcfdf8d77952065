import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadContent } from "#server/content/content-files.ts";
import { deliverQueuedMail } from "./outbox.ts";
import { PRACTICAL_FIXTURE_CONTENT, TEST_ORIGIN, type TestApp } from "./test-app.ts";

function pcmWav(seconds: number, rate = 8000) {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8, "latin1");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/** Files a practical submission may carry, by their real bytes. */
export const SAMPLE_FILES = {
  pdf: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
  text: Buffer.from("Coach: What brings you here today?\nVolunteer: I want more energy in the afternoons.\n"),
  mp3: Buffer.concat([
    Buffer.from("ID3"),
    Buffer.from([3, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]),
    Buffer.alloc(600),
  ]),
  /** A real, playable recording: 6 seconds of a quiet 440 Hz tone, 16-bit PCM WAV at 8 kHz (a player can seek in it). */
  wav: pcmWav(6),
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
/** The messages delivered to `email`, oldest first, as their raw text (quoted-printable soft breaks joined). */
export async function mailsTo(t: TestApp, email: string): Promise<string[]> {
  await deliverQueuedMail(t.app);
  const dir = t.config.mailOutboxDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((file) => readFileSync(join(dir, file), "utf8").replace(/=\r?\n/g, ""))
    .filter((text) => text.includes(`To: ${email}`));
}

export async function mailSubjectsTo(t: TestApp, email: string): Promise<string[]> {
  return (await mailsTo(t, email)).map((text) => /^Subject: (.*)$/m.exec(text)?.[1] ?? "");
}

/** What a learner confirms on every submission: the client anonymised, and no real red flag in the session. */
export const CONFIRMATIONS = { consent: "yes", redFlag: "yes" };

/** A profile with the qualifications a coaching practical asks for. */
export const COACH_QUALIFICATIONS = {
  credential: "National Board Certified Health & Wellness Coach",
  awardingBody: "NBHWC",
  credentialNumber: "HWC-20931",
  coachingTraining: "Motivational interviewing, 40 hours (MINT trainer)",
};

/** The fixture practical's exemplars with their agreed scores, as the content files give them. */
export function fixtureExemplars(courseId = "fixture-practical") {
  const course = loadContent(PRACTICAL_FIXTURE_CONTENT).courses.find((c) => c.id === courseId);
  return course?.practical?.exemplars ?? [];
}

/**
 * Makes an assessor ready for live work on a course, the way the pages do it: records their
 * qualifications, is assigned by the admin, and scores every exemplar at its agreed levels.
 */
export async function makeLiveAssessor(
  app: FastifyInstance,
  adminCookie: string,
  assessor: { id: string; cookie: string },
  courseId = "fixture-practical",
) {
  const send = (method: "PUT" | "POST", url: string, cookie: string, payload: unknown) =>
    app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie }, payload: payload as object });
  const profile = await send("PUT", "/api/review/profile", assessor.cookie, COACH_QUALIFICATIONS);
  if (profile.statusCode !== 200) throw new Error(`profile: ${profile.body}`);
  const assigned = await send("POST", "/api/admin/course-staff", adminCookie, {
    userId: assessor.id,
    courseId,
    role: "assessor",
  });
  if (assigned.statusCode !== 200) throw new Error(`assign: ${assigned.body}`);
  for (const e of fixtureExemplars(courseId)) {
    const scored = await send("POST", `/api/review/calibration/${courseId}/${e.id}`, assessor.cookie, {
      scores: e.scores.map((s) => ({ ...s, comment: "As agreed." })),
      feedback: "Calibration.",
      decision: e.decision,
    });
    if (scored.statusCode !== 200) throw new Error(`calibrate: ${scored.body}`);
  }
}
