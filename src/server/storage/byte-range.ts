/** A single byte range of a stored file, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` request header asks of a file of `size` bytes (RFC 9110 section 14): one range, as
 * media players send when they seek; `"unsatisfiable"` when it starts at or past the end (416); `null`
 * when there is no header, it is not a byte range we read (malformed, another unit, several ranges),
 * so the whole file is sent, as the RFC lets a server do.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return null;
  if (from === "") {
    // A suffix: the last N bytes.
    const length = Number(to);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  if (to !== "" && Number(to) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: to === "" ? size - 1 : Math.min(Number(to), size - 1) };
}
