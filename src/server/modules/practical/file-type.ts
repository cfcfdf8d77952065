import { fileTypeFromBuffer } from "file-type";
import { isPlainText } from "#shared/schemas/text.ts";

/** Audio containers browsers and phones record in; file-type names some of them as video. */
const ACCEPTED: Record<string, string> = {
  "application/pdf": "application/pdf",
  "audio/mpeg": "audio/mpeg",
  "audio/mp4": "audio/mp4",
  "audio/x-m4a": "audio/mp4",
  "video/mp4": "audio/mp4",
  "audio/wav": "audio/wav",
  "audio/x-wav": "audio/wav",
  "audio/ogg": "audio/ogg",
  "audio/opus": "audio/ogg",
  "audio/webm": "audio/webm",
  "video/webm": "audio/webm",
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
};

export const extensionOf = (contentType: string) => EXTENSION[contentType] ?? "bin";

function isUtf8Text(data: Buffer): boolean {
  try {
    return isPlainText(new TextDecoder("utf-8", { fatal: true }).decode(data));
  } catch {
    return false;
  }
}

/**
 * The type of an uploaded file judged by its content (magic bytes), never its name or the browser's
 * claim: a PDF, a common audio format, or plain UTF-8 text without control characters. Null otherwise.
 */
export async function detectPracticalFileType(data: Buffer): Promise<string | null> {
  if (data.length === 0) return null;
  const detected = await fileTypeFromBuffer(data);
  if (detected) return ACCEPTED[detected.mime] ?? null;
  return isUtf8Text(data) ? "text/plain" : null;
}
