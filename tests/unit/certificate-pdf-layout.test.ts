import { describe, expect, it } from "vitest";
import { type CertificatePdfData, renderCertificatePdf } from "#server/modules/certificates/certificate-pdf.ts";
import { must, nth, take } from "../setup/must.ts";
import { pdfFontNames, pdfLines, pdfWords, poppler, type Word } from "../setup/pdf-inspect.ts";

const certificateId = "HWA-ABCDEFGHJKLMNPQR";
const render = (holderName: string, extra: Partial<CertificatePdfData> = {}) =>
  renderCertificatePdf({
    holderName,
    courseTitle: "Holistic Nutrition Foundations",
    certificateId,
    completedAt: "2026-11-20T10:00:00.000Z",
    expiresAt: "2028-11-20T10:00:00.000Z",
    verifyUrl: `http://localhost:3000/verify/${certificateId}`,
    status: "valid",
    ...extra,
  });

const only = (words: Word[], text: string) => {
  const found = words.filter((w) => w.text === text);
  expect(found, text).toHaveLength(1);
  return must(found[0], `the word "${text}"`);
};

/** The name's words: those between "This certifies that" and "has successfully completed the course". */
function nameWords(words: Word[]) {
  const top = only(words, "certifies").yMin;
  const bottom = only(words, "successfully").yMax;
  return words.filter((w) => w.yMax < top && w.yMin > bottom);
}

/** The rule under the name: the horizontal line between the name and "has successfully...". */
async function nameRule(bytes: Uint8Array, words: Word[]) {
  const name = nameWords(words);
  const lowest = Math.min(...name.map((w) => w.yMin));
  const below = only(words, "successfully").yMax;
  const rules = (await pdfLines(bytes)).filter((l) => l.y1 === l.y2 && l.y1 < lowest + 2 && l.y1 > below);
  expect(rules).toHaveLength(1);
  const [rule] = take(rules, 1, "rules under the name");
  return { left: Math.min(rule.x1, rule.x2), right: Math.max(rule.x1, rule.x2) };
}

describe.skipIf(!poppler)("the certificate PDF's layout", () => {
  it("puts the Verify line and its link in the ID column", async () => {
    const words = pdfWords(await render("Ada Lovelace"));
    const idColumn = only(words, certificateId).xMin;
    const idLabel = words.find((w) => w.text === "Certificate" && w.yMax < 200);
    expect(idLabel?.xMin).toBeCloseTo(idColumn, 1);
    expect(only(words, "Verify").xMin).toBeCloseTo(idColumn, 1);
    expect(only(words, `http://localhost:3000/verify/${certificateId}`).xMin).toBeCloseTo(idColumn, 1);
  });

  it.each([
    ["a short name", "Ada Lovelace", "Holistic Nutrition Foundations"],
    ["a three-line name", "Bartholomew ".repeat(30), "Holistic Nutrition Foundations"],
    [
      "a two-line course title",
      "Ada Lovelace",
      "Holistic Nutrition, Mindful Movement and Restful Sleep for Coaches ".repeat(2),
    ],
  ])(
    "leaves no empty band with %s: the middle is centred between the title and the details",
    async (_, name, courseTitle) => {
      const words = pdfWords(await render(name, { courseTitle }));
      const title = only(words, "Completion");
      const certifies = only(words, "certifies");
      const detailsTop = Math.max(...words.filter((w) => w.text === "Date" || w.text === "Valid").map((w) => w.yMax));
      const courseBottom = Math.min(
        ...words.filter((w) => w.yMax > detailsTop + 5 && w.yMax < certifies.yMin).map((w) => w.yMin),
      );
      const above = title.yMin - certifies.yMax;
      const below = courseBottom - detailsTop;
      expect(Math.abs(above - below)).toBeLessThan(12);
      expect(below).toBeGreaterThan(20);
    },
  );

  it.each([
    ["a long Latin name", "Maximiliana Bartholomew-Featherstonehaugh Montgomery-Vanderbilt III", 2],
    ["a very long Latin name", `${"Bartholomew".repeat(23).slice(0, 255)} X`, 3],
    ["a long CJK name", "欧阳".repeat(40), 3],
  ])("keeps %s within the rule under it, on at most three lines", async (_, name, lines) => {
    const bytes = await render(name);
    const words = pdfWords(bytes);
    const rule = await nameRule(bytes, words);
    const inName = nameWords(words);
    expect(new Set(inName.map((w) => Math.round(w.yMin))).size).toBe(lines);
    for (const w of inName) {
      expect(w.xMin, w.text).toBeGreaterThanOrEqual(rule.left);
      expect(w.xMax, w.text).toBeLessThanOrEqual(rule.right);
    }
  });

  it("shrinks a name that is a little too long instead of wrapping it", async () => {
    const short = nameWords(pdfWords(await render("Ada Lovelace")));
    const bytes = await render("Alexandrina Konstantinopoulou-Wetherspoon");
    const words = pdfWords(bytes);
    const rule = await nameRule(bytes, words);
    const long = nameWords(words);
    expect(new Set(long.map((w) => Math.round(w.yMin))).size).toBe(1);
    const [longWord, shortWord] = [nth(long, 0), nth(short, 0)];
    expect(longWord.yMax - longWord.yMin).toBeLessThan(shortWord.yMax - shortWord.yMin);
    expect(Math.max(...long.map((w) => w.xMax))).toBeLessThanOrEqual(rule.right);
  });

  it("ends a name too long for three lines with an ellipsis, keeping its start", async () => {
    const name = `${"Bartholomew".repeat(23).slice(0, 255)} X`;
    const printed = nameWords(pdfWords(await render(name)))
      .map((w) => w.text)
      .join("");
    expect(printed.endsWith("…")).toBe(true);
    expect(name.startsWith(printed.slice(0, -1))).toBe(true);
  });

  it.each([
    ["山田太郎", "NotoSansSC-Bold"],
    ["김민준", "NotoSansKR-Bold"],
  ])("sets %s in a bold face that has its glyphs (%s)", async (name, face) => {
    const bytes = await render(name);
    const fonts = pdfFontNames(bytes);
    expect(fonts.some((f) => new RegExp(`^([A-Z]{6}\\+)?${face}\\b`).test(f))).toBe(true);
    expect(fonts.some((f) => /Regular/.test(f) && !/^NotoSans-Regular\b/.test(f))).toBe(false);
    // A missing glyph comes out as the face's first character repeated.
    expect(nameWords(pdfWords(bytes)).map((w) => w.text)).toEqual([name]);
  });
});
