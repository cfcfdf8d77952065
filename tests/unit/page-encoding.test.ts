import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodePage } from "#server/modules/site/page-encoding.ts";

// Pages come compressed in the encoding the browser asks for (decision 0046).
const html = `<!doctype html><html><body>${"<p>A painted page.</p>".repeat(200)}</body></html>`;

describe("a page's encoding", () => {
  it("is brotli when the browser takes it, and the page reads back whole", () => {
    const page = encodePage(html, "gzip, deflate, br, zstd");
    expect(page.encoding).toBe("br");
    expect(brotliDecompressSync(page.body).toString()).toBe(html);
  });

  it("is gzip when brotli is not taken, refused with q=0 or less preferred", () => {
    for (const header of ["gzip, deflate", "br;q=0, gzip;q=0.8", "GZIP", "br;q=0.5, gzip"]) {
      const page = encodePage(html, header);
      expect(page.encoding, header).toBe("gzip");
      expect(gunzipSync(page.body).toString()).toBe(html);
    }
  });

  it("is none when the browser asks for no encoding it knows", () => {
    for (const header of [undefined, "", "identity", "gzip;q=0"])
      expect(encodePage(html, header)).toEqual({ encoding: null, body: html });
  });
});
