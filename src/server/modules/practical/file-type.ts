import { Transform } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import { isPlainText } from "#shared/schemas/text.ts";

/** Audio and video containers browsers and phones record in (an audio-only MP4 or WebM plays as video too). */
const ACCEPTED: Record<string, string> = {
  "application/pdf": "application/pdf",
  "audio/mpeg": "audio/mpeg",
  "audio/mp4": "audio/mp4",
  "audio/x-m4a": "audio/mp4",
  "video/mp4": "video/mp4",
  "video/quicktime": "video/quicktime",
  "audio/wav": "audio/wav",
  "audio/x-wav": "audio/wav",
  "audio/ogg": "audio/ogg",
  "audio/opus": "audio/ogg",
  "audio/webm": "audio/webm",
  "video/webm": "video/webm",
  "audio/flac": "audio/flac",
  "audio/x-flac": "audio/flac",
  "audio/aac": "audio/aac",
};

const EXTENSION: Record<string, string> = {
  "application/pdf": "pdf",
  "text/plain": "txt",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "audio/webm": "webm",
  "audio/flac": "flac",
  "audio/aac": "aac",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
};

export const extensionOf = (contentType: string) => EXTENSION[contentType] ?? "bin";

/** Bytes from the start of a file that its type is judged by (magic numbers; file-type reads at most this far for ours). */
const HEAD_BYTES = 64 * 1024;

/**
 * Watches a file's bytes as they pass on to storage (never holding the file): its first bytes, its
 * size, and whether it is all plain UTF-8 text. `contentType()` then judges it by content, never its
 * name or the browser's claim: a PDF, a common audio format, or plain UTF-8 text without control
 * characters; null otherwise (and for an empty file).
 */
export function practicalFileInspector() {
  const heads: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let text = true;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        const piece = chunk.subarray(0, HEAD_BYTES - headLength);
        heads.push(piece);
        headLength += piece.length;
      }
      if (text) {
        try {
          text = isPlainText(decoder.decode(chunk, { stream: true }));
        } catch {
          text = false;
        }
      }
      done(null, chunk);
    },
  });
  return {
    stream,
    size: () => size,
    async contentType(): Promise<string | null> {
      if (size === 0) return null;
      const detected = await fileTypeFromBuffer(Buffer.concat(heads));
      if (detected) return ACCEPTED[detected.mime] ?? null;
      try {
        decoder.decode();
      } catch {
        return null;
      }
      return text ? "text/plain" : null;
    },
  };
}
