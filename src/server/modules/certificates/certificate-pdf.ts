import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import QRCode from "qrcode";
import subsetFont from "subset-font";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";

const fontFile = (file: string) => fileURLToPath(new URL(`../../../../assets/fonts/${file}`, import.meta.url));

// Noto covers Latin, Greek and Cyrillic in one face; CJK, Arabic and Hebrew have their own (assets/fonts, OFL).
const FONT_FILES = {
  regular: fontFile("NotoSans-Regular.ttf"),
  bold: fontFile("NotoSans-Bold.ttf"),
  cjk: fontFile("NotoSansSC-Regular.ttf"),
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
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(char))
    return "cjk";
  if (/\p{Script=Arabic}/u.test(char)) return "arabic";
  if (/\p{Script=Hebrew}/u.test(char)) return "hebrew";
  return "bold";
}

/** Splits a name into runs that each use one font; spaces join the run they follow. */
export function scriptRuns(text: string): { font: FontKey; text: string }[] {
  const runs: { font: FontKey; text: string }[] = [];
  for (const char of text) {
    const font = /\s/.test(char) && runs.length ? runs[runs.length - 1].font : scriptFont(char);
    const last = runs[runs.length - 1];
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
  /** The signed Open Badges credential, embedded as a file attachment a wallet or verifier can take out. */
  credentialJson?: string;
}

const STATIC_TEXT = `${BRAND_NAME.toUpperCase()} Certificate of Completion This certifies that has successfully completed the course Date Completed Valid Until Certificate ID Authorized Institution ${BRAND_NAME} Verify this certificate: REVOKED EXPIRED 0123456789`;

const INK = rgb(0.06, 0.09, 0.16);
const BRAND = rgb(0.06, 0.46, 0.43);
const MUTED = rgb(0.28, 0.33, 0.41);

function drawCentered(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = INK) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font, color });
}

/**
 * Fits text into maxWidth by shrinking it, then by wrapping it onto at most maxLines lines.
 * `widthAt1` is the width at size 1 (widths scale with the size). Linear in the text's length: the
 * whole text is measured once, then each character once, and wrapping stops at the last line.
 */
export function fitLines(
  text: string,
  widthAt1: (t: string) => number,
  maxWidth: number,
  start: number,
  min: number,
  maxLines: number,
) {
  const whole = widthAt1(text);
  for (let size = start; size >= min; size -= 1) if (whole * size <= maxWidth) return { lines: [text], size };
  const size = min;
  const limit = maxWidth / size;
  const charWidths = new Map<string, number>();
  const widthOfChar = (char: string) => {
    let w = charWidths.get(char);
    if (w === undefined) {
      w = widthAt1(char);
      charWidths.set(char, w);
    }
    return w;
  };
  const lines: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const char of text) {
    const w = widthOfChar(char);
    if (lineWidth + w > limit && line) {
      lines.push(line);
      if (lines.length === maxLines) return { lines, size };
      line = char.trimStart();
      lineWidth = line ? w : 0;
    } else {
      line += char;
      lineWidth += w;
    }
  }
  if (line) lines.push(line);
  return { lines, size };
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
    `${data.holderName}${data.courseTitle}${data.certificateId}${data.verifyUrl}${formatLongDate(data.completedAt)}${formatLongDate(data.expiresAt)}${STATIC_TEXT}`,
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

  drawCentered(page, "HOLISTIC WELLNESS ACADEMY", height - 92, bold, 14, BRAND);
  drawCentered(page, "Certificate of Completion", height - 140, bold, 34);
  drawCentered(page, "This certifies that", height - 180, regular, 13, MUTED);

  // The holder's name, in whatever scripts it is written.
  const runs = scriptRuns(data.holderName);
  for (const r of runs) await font(r.font);
  const rtl = runs.some((r) => r.font === "arabic" || r.font === "hebrew");
  const widthOf = (text: string, size: number) =>
    scriptRuns(text).reduce((w, r) => w + fonts.get(r.font)!.widthOfTextAtSize(r.text, size), 0);
  const { lines, size } = fitLines(data.holderName, (t) => widthOf(t, 1), width - 160, 36, 14, 4);
  let y = height - 228;
  for (const line of lines) {
    const lineRuns = scriptRuns(line);
    const ordered = rtl ? [...lineRuns].reverse() : lineRuns;
    let x = (width - widthOf(line, size)) / 2;
    for (const r of ordered) {
      const f = fonts.get(r.font)!;
      page.drawText(r.text, { x, y, size, font: f, color: INK });
      x += f.widthOfTextAtSize(r.text, size);
    }
    y -= size * 1.25;
  }
  page.drawLine({
    start: { x: width / 2 - 220, y: y + size * 0.9 },
    end: { x: width / 2 + 220, y: y + size * 0.9 },
    thickness: 0.8,
    color: rgb(0.8, 0.84, 0.88),
  });

  drawCentered(page, "has successfully completed the course", y - 8, regular, 13, MUTED);
  const course = fitLines(data.courseTitle, (t) => bold.widthOfTextAtSize(t, 1), width - 200, 22, 12, 2);
  let cy = y - 40;
  for (const line of course.lines) {
    drawCentered(page, line, cy, bold, course.size, BRAND);
    cy -= course.size * 1.3;
  }

  // Dates, ID, signature block and the verification link with its QR code.
  const details: [string, string][] = [
    ["Date Completed", formatLongDate(data.completedAt)],
    ["Valid Until", formatLongDate(data.expiresAt)],
    ["Certificate ID", data.certificateId],
  ];
  details.forEach(([label, value], i) => {
    const x = 90 + i * 170;
    page.drawText(label, { x, y: 150, size: 9, font: regular, color: MUTED });
    page.drawText(value, { x, y: 134, size: 11, font: bold, color: INK });
  });
  page.drawLine({ start: { x: 90, y: 98 }, end: { x: 300, y: 98 }, thickness: 0.8, color: INK });
  page.drawText("Authorized Institution", { x: 90, y: 84, size: 10, font: bold, color: INK });
  page.drawText(BRAND_NAME, { x: 90, y: 70, size: 9, font: regular, color: MUTED });

  const qr = await QRCode.toBuffer(data.verifyUrl, { type: "png", margin: 1, width: 240, errorCorrectionLevel: "M" });
  const qrImage = await pdf.embedPng(qr);
  page.drawImage(qrImage, { x: width - 190, y: 70, width: 100, height: 100 });
  page.drawText("Verify this certificate:", { x: width - 420, y: 110, size: 9, font: regular, color: MUTED });
  const url = fitLines(data.verifyUrl, (t) => regular.widthOfTextAtSize(t, 1), 220, 9, 6, 3);
  url.lines.forEach((line, i) => {
    page.drawText(line, { x: width - 420, y: 96 - i * 10, size: url.size, font: regular, color: BRAND });
  });
  if (data.status !== "valid") {
    drawCentered(
      page,
      data.status === "revoked" ? "REVOKED" : "EXPIRED",
      height / 2 - 20,
      bold,
      80,
      rgb(0.8, 0.1, 0.1),
    );
  }
  if (data.credentialJson) {
    await pdf.attach(new TextEncoder().encode(data.credentialJson), `credential-${data.certificateId}.json`, {
      mimeType: "application/json",
      description: "Open Badges 3.0 credential (signed)",
    });
  }
  return pdf.save();
}
