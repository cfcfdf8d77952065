import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import QRCode from "qrcode";
import subsetFont from "subset-font";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { createTagger } from "./certificate-pdf-tags.ts";

// From the working folder, like the content and the built client: the compiled server lives elsewhere.
const fontFile = (file: string) => resolve("assets/fonts", file);

// Noto covers Latin, Greek and Cyrillic in one face; Chinese and Japanese, Korean (Noto Sans SC has no Hangul),
// Arabic and Hebrew have their own (assets/fonts, OFL). Names are bold in every script.
const FONT_FILES = {
  regular: fontFile("NotoSans-Regular.ttf"),
  bold: fontFile("NotoSans-Bold.ttf"),
  cjk: fontFile("NotoSansSC-Bold.ttf"),
  korean: fontFile("NotoSansKR-Bold.ttf"),
  arabic: fontFile("NotoSansArabic-Bold.ttf"),
  hebrew: fontFile("NotoSansHebrew-Bold.ttf"),
} as const;
type FontKey = keyof typeof FONT_FILES;

const fontBytes = new Map<FontKey, Uint8Array>();
function bytesOf(key: FontKey): Uint8Array {
  let bytes = fontBytes.get(key);
  if (!bytes) {
    bytes = readFileSync(FONT_FILES[key]);
    fontBytes.set(key, bytes);
  }
  return bytes;
}

function scriptFont(char: string): FontKey {
  if (/\p{Script=Hangul}/u.test(char)) return "korean";
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u.test(char)) return "cjk";
  if (/\p{Script=Arabic}/u.test(char)) return "arabic";
  if (/\p{Script=Hebrew}/u.test(char)) return "hebrew";
  return "bold";
}

/** Splits a name into runs that each use one font; spaces join the run they follow. */
export function scriptRuns(text: string): { font: FontKey; text: string }[] {
  const runs: { font: FontKey; text: string }[] = [];
  for (const char of text) {
    const last = runs.at(-1);
    const font = /\s/.test(char) && last ? last.font : scriptFont(char);
    if (last && last.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}

export interface CertificatePdfData {
  holderName: string;
  courseTitle: string;
  certificateId: string;
  completedAt: string;
  expiresAt: string;
  verifyUrl: string;
  status: "valid" | "expired" | "revoked";
  /** The course version the certificate was earned on and its date (decision 0055), under the course title. */
  versionLine?: string;
  /** What the certificate says about hours (decision 0052), printed under the dates; null: nothing. */
  creditStatement?: string | null;
  /** The practical assessed by a calibrated assessor against the published rubric (docs/decisions/0053); null: nothing. */
  assessmentStatement?: string | null;
  /** The signed Open Badges credential, embedded as a file attachment a wallet or verifier can take out. */
  credentialJson?: string;
}

const ELLIPSIS = "\u2026";
const STATIC_TEXT = `${BRAND_NAME.toUpperCase()} Certificate of Completion This certifies that has successfully completed the course Date Completed Valid Until Certificate ID Authorized Institution ${BRAND_NAME} Verify this certificate: REVOKED EXPIRED 0123456789${ELLIPSIS} Estimated study time: hours, including the practical assessment. Not approved for continuing-education credit.`;

/** The rule under the holder's name; the name is kept within its width. */
export const NAME_RULE_WIDTH = 520;
/** How far below the name's last baseline the rule runs, in ems: below the descenders. */
const RULE_DROP = 0.4;
/** The space between the title and the details row that the middle block is centred in. */
const MIDDLE_TOP = 430;
const MIDDLE_BOTTOM = 180;

const INK = rgb(0.06, 0.09, 0.16);
const BRAND = rgb(0.06, 0.46, 0.43);
const MUTED = rgb(0.28, 0.33, 0.41);

/** `joined`: a wrapped line that the next one continues; it ends in a space, so a reader joins the lines as words. */
function drawCentered(
  page: PDFPage,
  text: string,
  y: number,
  font: PDFFont,
  size: number,
  color = INK,
  joined = false,
) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(joined ? `${text} ` : text, { x: (page.getWidth() - width) / 2, y, size, font, color });
}

/**
 * Fits text into maxWidth: at each size from `start` down to `min` it takes one line, or (from
 * `wrapAt` down) up to maxLines lines broken at spaces where there are any. If nothing fits, the
 * last line at `min` ends in an ellipsis. `widthAt1` is the width at size 1 (widths scale with the
 * size and add up per character: no kerning, no ligatures). Linear in the text's length: the whole
 * text is measured once, then each distinct character once.
 */
export function fitLines(
  text: string,
  widthAt1: (t: string) => number,
  maxWidth: number,
  start: number,
  min: number,
  maxLines: number,
  wrapAt = min,
): { lines: string[]; size: number; truncated: boolean } {
  const whole = widthAt1(text);
  for (let size = start; size > wrapAt; size -= 1)
    if (whole * size <= maxWidth) return { lines: [text], size, truncated: false };
  const charWidths = new Map<string, number>();
  const widthOfChar = (char: string) => {
    let w = charWidths.get(char);
    if (w === undefined) {
      w = widthAt1(char);
      charWidths.set(char, w);
    }
    return w;
  };
  const chars = [...text];
  for (let size = wrapAt; size >= min; size -= 1) {
    if (whole * size <= maxWidth) return { lines: [text], size, truncated: false };
    const wrapped = wrap(chars, widthOfChar, maxWidth / size, maxLines + 1);
    if (wrapped.length <= maxLines) return { lines: wrapped, size, truncated: false };
    if (size === min) {
      const lines = wrapped.slice(0, maxLines - 1);
      const cut = wrapped[maxLines - 1];
      if (cut !== undefined) lines.push(ellipsize(cut, widthOfChar, maxWidth / size));
      return { lines, size, truncated: true };
    }
  }
  return { lines: [text], size: min, truncated: false };
}

/** Greedy line breaking at the last space that fits (anywhere in a word with none); stops after `stopAfter` lines. */
function wrap(chars: string[], widthOf: (c: string) => number, limit: number, stopAfter: number): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let lineWidth = 0;
  let space = -1;
  let widthThroughSpace = 0;
  for (const char of chars) {
    const w = widthOf(char);
    while (lineWidth + w > limit && line.length) {
      const breakAt = space > 0 ? space : line.length;
      lines.push(line.slice(0, breakAt).join("").trimEnd());
      if (lines.length === stopAfter) return lines;
      line = line.slice(space > 0 ? space + 1 : breakAt);
      lineWidth = space > 0 ? lineWidth - widthThroughSpace : 0;
      for (let first = line[0]; first !== undefined && /\s/.test(first); first = line[0]) {
        line.shift();
        lineWidth -= widthOf(first);
      }
      space = -1;
    }
    if (/\s/.test(char) && !line.length) continue;
    if (/\s/.test(char)) {
      space = line.length;
      widthThroughSpace = lineWidth + w;
    }
    line.push(char);
    lineWidth += w;
  }
  if (line.length) lines.push(line.join("").trimEnd());
  return lines;
}

function ellipsize(line: string, widthOf: (c: string) => number, limit: number): string {
  const chars = [...line];
  let width = chars.reduce((sum, c) => sum + widthOf(c), widthOf(ELLIPSIS));
  while (width > limit) {
    const last = chars.pop();
    if (last === undefined) break;
    width -= widthOf(last);
  }
  return `${chars.join("").trimEnd()}${ELLIPSIS}`;
}

/** The certificate as a landscape A4 PDF with embedded Unicode fonts, the verify link and its QR code. */
export async function renderCertificatePdf(data: CertificatePdfData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`Certificate of Completion - ${data.courseTitle}`);
  pdf.setAuthor(BRAND_NAME);
  pdf.setSubject(`${data.holderName} - ${data.certificateId}`);
  const fonts = new Map<FontKey, PDFFont>();
  // Fonts are cut down with HarfBuzz to the characters this certificate uses (pdf-lib's own
  // subsetter loses glyphs), so a CJK name adds kilobytes, not the 10 MB face.
  const used = new Set(
    `${data.holderName}${data.courseTitle}${data.certificateId}${data.verifyUrl}${formatLongDate(data.completedAt)}${formatLongDate(data.expiresAt)}${data.creditStatement ?? ""}${data.versionLine ?? ""}${data.assessmentStatement ?? ""}${STATIC_TEXT}`,
  );
  const font = async (key: FontKey) => {
    let f = fonts.get(key);
    if (!f) {
      // Arabic and Hebrew keep their shaping tables and go through pdf-lib's subsetter, which shapes them right.
      const shaped = key === "arabic" || key === "hebrew";
      const bytes = shaped
        ? bytesOf(key)
        : await subsetFont(Buffer.from(bytesOf(key)), [...used].join(""), { targetFormat: "truetype" });
      f = await pdf.embedFont(bytes, shaped ? { subset: true } : { subset: false, features: { liga: false } });
      fonts.set(key, f);
    }
    return f;
  };
  const regular = await font("regular");
  const bold = await font("bold");

  const page = pdf.addPage([841.89, 595.28]);
  const { width, height } = page.getSize();
  // Tagged (docs/decisions/0027): text in reading order, frames and rules as artifacts.
  const tags = createTagger(pdf, page, "en-US", BRAND_NAME);
  tags.artifact(() => {
    page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(0.99, 0.99, 0.98) });
    page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: BRAND, borderWidth: 3 });
    page.drawRectangle({
      x: 34,
      y: 34,
      width: width - 68,
      height: height - 68,
      borderColor: rgb(0.8, 0.91, 0.89),
      borderWidth: 1,
    });
  });

  await tags.mark("P", () => drawCentered(page, BRAND_NAME.toUpperCase(), height - 92, bold, 14, BRAND));
  await tags.mark("H1", () => drawCentered(page, "Certificate of Completion", height - 140, bold, 34));

  // The holder's name, in whatever scripts it is written, kept within the rule under it.
  const runs = scriptRuns(data.holderName);
  for (const r of runs) await font(r.font);
  const rtl = runs.some((r) => r.font === "arabic" || r.font === "hebrew");
  const widthOf = (text: string, size: number) =>
    scriptRuns(text).reduce((w, r) => w + fonts.get(r.font)!.widthOfTextAtSize(r.text, size), 0);
  const name = fitLines(data.holderName, (t) => widthOf(t, 1), NAME_RULE_WIDTH, 36, 14, 3, 20);
  const course = fitLines(data.courseTitle, (t) => bold.widthOfTextAtSize(t, 1), width - 200, 22, 12, 2, 16);

  // The middle block (from "This certifies that" to the course) sits centred between the title
  // and the details row, so a short name leaves no empty band above the details.
  const nameLead = name.size * 1.25;
  const courseLead = course.size * 1.3;
  const nameDepth = (name.lines.length - 1) * nameLead + RULE_DROP * name.size;
  const courseDepth = (course.lines.length - 1) * courseLead + course.size * 0.25;
  // Baseline to baseline: "This certifies that", the name, the rule, "has successfully...", the course.
  const gap = { toName: 26 + name.size * 0.75, toCompleted: 30, toCourse: 32 };
  const versionGap = data.versionLine ? 18 : 0;
  const blockHeight = 10 + gap.toName + nameDepth + gap.toCompleted + gap.toCourse + courseDepth + versionGap;
  let y = MIDDLE_TOP - (MIDDLE_TOP - MIDDLE_BOTTOM - blockHeight) / 2 - 10;
  await tags.mark("P", () => drawCentered(page, "This certifies that", y, regular, 13, MUTED));
  y -= gap.toName;
  await tags.mark("P", () =>
    name.lines.forEach((line, i) => {
      if (i > 0) y -= nameLead;
      const lineRuns = scriptRuns(line);
      const ordered = rtl ? [...lineRuns].reverse() : lineRuns;
      let x = (width - widthOf(line, name.size)) / 2;
      for (const r of ordered) {
        const f = fonts.get(r.font)!;
        const joined = r === ordered.at(-1) && i < name.lines.length - 1;
        page.drawText(joined ? `${r.text} ` : r.text, { x, y, size: name.size, font: f, color: INK });
        x += f.widthOfTextAtSize(r.text, name.size);
      }
    }),
  );
  y -= RULE_DROP * name.size;
  tags.artifact(() =>
    page.drawLine({
      start: { x: (width - NAME_RULE_WIDTH) / 2, y },
      end: { x: (width + NAME_RULE_WIDTH) / 2, y },
      thickness: 0.8,
      color: rgb(0.8, 0.84, 0.88),
    }),
  );
  y -= gap.toCompleted;
  await tags.mark("P", () => drawCentered(page, "has successfully completed the course", y, regular, 13, MUTED));
  y -= gap.toCourse;
  await tags.mark("P", () =>
    course.lines.forEach((line, i) => {
      if (i > 0) y -= courseLead;
      drawCentered(page, line, y, bold, course.size, BRAND, i < course.lines.length - 1);
    }),
  );
  const versionText = data.versionLine;
  if (versionText) {
    y -= versionGap;
    await tags.mark("P", () => drawCentered(page, versionText, y, regular, 10, MUTED));
  }

  // Dates and ID in three columns; under the ID column, the verification link; the QR code beside it.
  const details: [string, string][] = [
    ["Date Completed", formatLongDate(data.completedAt)],
    ["Valid Until", formatLongDate(data.expiresAt)],
    ["Certificate ID", data.certificateId],
  ];
  const column = (i: number) => 90 + i * 170;
  // A label and its value are two paragraphs: in one, a reader runs them together ("Date CompletedDecember 3").
  for (const [i, [label, value]] of details.entries()) {
    await tags.mark("P", () => page.drawText(label, { x: column(i), y: 150, size: 9, font: regular, color: MUTED }));
    await tags.mark("P", () => page.drawText(value, { x: column(i), y: 134, size: 11, font: bold, color: INK }));
  }
  const credit = [data.creditStatement, data.assessmentStatement].filter(Boolean).join(" ");
  if (credit) {
    // Three lines at most, within the first two columns (the verify link and QR code are in the third).
    const fit = fitLines(credit, (t) => regular.widthOfTextAtSize(t, 1), column(2) - column(0) - 16, 8, 6, 3);
    await tags.mark("P", () =>
      fit.lines.forEach((line, i) => {
        const text = i < fit.lines.length - 1 ? `${line} ` : line;
        page.drawText(text, { x: column(0), y: 118 - i * 8, size: fit.size, font: regular, color: MUTED });
      }),
    );
  }
  tags.artifact(() => page.drawLine({ start: { x: 90, y: 98 }, end: { x: 300, y: 98 }, thickness: 0.8, color: INK }));
  await tags.mark("P", () =>
    page.drawText("Authorized Institution", { x: 90, y: 84, size: 10, font: bold, color: INK }),
  );
  await tags.mark("P", () => page.drawText(BRAND_NAME, { x: 90, y: 70, size: 9, font: regular, color: MUTED }));

  const qrX = width - 190;
  const qr = await QRCode.toBuffer(data.verifyUrl, { type: "png", margin: 1, width: 240, errorCorrectionLevel: "M" });
  const qrImage = await pdf.embedPng(qr);
  const verifyX = column(2);
  await tags.mark("P", () =>
    page.drawText("Verify this certificate:", { x: verifyX, y: 106, size: 9, font: regular, color: MUTED }),
  );
  const url = fitLines(data.verifyUrl, (t) => regular.widthOfTextAtSize(t, 1), qrX - 16 - verifyX, 9, 6, 3);
  const link = await tags.mark("Link", () =>
    url.lines.forEach((line, i) => {
      page.drawText(line, { x: verifyX, y: 93 - i * 10, size: url.size, font: regular, color: BRAND });
    }),
  );
  const urlWidth = Math.max(...url.lines.map((l) => regular.widthOfTextAtSize(l, url.size)));
  const urlBottom = 93 - (url.lines.length - 1) * 10 - 3;
  tags.link(
    link,
    [verifyX, urlBottom, verifyX + urlWidth, 93 + url.size],
    data.verifyUrl,
    `Verify this certificate: ${data.verifyUrl}`,
  );
  await tags.mark("Figure", () => page.drawImage(qrImage, { x: qrX, y: 70, width: 100, height: 100 }), {
    alt: `QR code linking to this certificate's verification page, ${data.verifyUrl}`,
  });
  if (data.status !== "valid") {
    await tags.mark("P", () =>
      drawCentered(
        page,
        data.status === "revoked" ? "REVOKED" : "EXPIRED",
        height / 2 - 20,
        bold,
        80,
        rgb(0.8, 0.1, 0.1),
      ),
    );
  }
  tags.finish(`Certificate of Completion - ${data.courseTitle}`);
  if (data.credentialJson) {
    await pdf.attach(new TextEncoder().encode(data.credentialJson), `credential-${data.certificateId}.json`, {
      mimeType: "application/json",
      description: "Open Badges 3.0 credential (signed)",
    });
  }
  return pdf.save();
}
