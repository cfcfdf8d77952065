import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";

// pdftotext/pdffonts come from Debian's poppler-utils; .ci/run installs them.
export const poppler = spawnSync("pdftotext", ["-v"]).status === 0;
if (!poppler && process.env.CI) throw new Error("pdftotext is missing: install poppler-utils");

function toFile(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), "pdf-")), "c.pdf");
  writeFileSync(file, bytes);
  return file;
}

/** A word as poppler reads it, in PDF units with y going up from the page's bottom edge. */
export interface Word {
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (entity, e: string) => ENTITIES[e] ?? entity);

/** The page's words with their boxes (`pdftotext -bbox`). */
export function pdfWords(bytes: Uint8Array): Word[] {
  const html = execFileSync("pdftotext", ["-bbox", toFile(bytes), "-"], { encoding: "utf8" });
  const pageHeight = Number(/<page width="[\d.]+" height="([\d.]+)"/.exec(html)?.[1]);
  return [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map(([, xMin, yMin, xMax, yMax, text = ""]) => ({
    text: decode(text).normalize("NFC"),
    xMin: Number(xMin),
    xMax: Number(xMax),
    yMin: pageHeight - Number(yMax),
    yMax: pageHeight - Number(yMin),
  }));
}

/** The embedded fonts' names, without the subset tag (`pdffonts`). */
export function pdfFontNames(bytes: Uint8Array): string[] {
  const out = execFileSync("pdffonts", [toFile(bytes)], { encoding: "utf8" });
  return out
    .split("\n")
    .slice(2)
    .map((line) => line.split(/\s+/)[0] ?? "")
    .filter(Boolean);
}

/** Straight lines stroked on the first page (`x1 y1 m x2 y2 l` in its content streams). */
export async function pdfLines(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes);
  const page = pdf.getPage(0);
  const contents = page.node.Contents();
  const streams = contents && "asArray" in contents ? contents.asArray() : [contents];
  let ops = "";
  for (const ref of streams) {
    const stream = pdf.context.lookup(ref as never);
    if (!(stream instanceof PDFRawStream)) continue;
    const flate = stream.dict.get(PDFName.of("Filter")) === PDFName.of("FlateDecode");
    ops += Buffer.from(flate ? inflateSync(stream.contents) : stream.contents).toString("latin1");
  }
  const num = String.raw`(-?[\d.]+)`;
  return [...ops.matchAll(new RegExp(String.raw`${num} ${num} m\s+${num} ${num} l`, "g"))].map((m) => ({
    x1: Number(m[1]),
    y1: Number(m[2]),
    x2: Number(m[3]),
    y2: Number(m[4]),
  }));
}
