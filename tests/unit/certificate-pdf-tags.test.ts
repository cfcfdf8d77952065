import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PDFArray, type PDFDict, PDFDocument, PDFName, type PDFRef, type PDFString } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { renderCertificatePdf } from "#server/modules/certificates/certificate-pdf.ts";
import { nth } from "../setup/must.ts";
import { poppler } from "../setup/pdf-inspect.ts";

const certificateId = "HWA-2026-TAGGED01";
const verifyUrl = `https://academy.example/verify/${certificateId}`;
const render = () =>
  renderCertificatePdf({
    holderName: "Ada Lovelace",
    courseTitle: "Holistic Nutrition Foundations",
    certificateId,
    completedAt: "2026-11-20T10:00:00.000Z",
    expiresAt: "2028-11-20T10:00:00.000Z",
    verifyUrl,
    status: "valid",
    credentialJson: '{"type":["VerifiableCredential"]}',
  });

describe("the certificate PDF is tagged", () => {
  it.skipIf(!poppler)("pdfinfo reads it as tagged, with its title", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pdf-")), "c.pdf");
    writeFileSync(file, await render());
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Certificate of Completion - Holistic Nutrition Foundations$/m);
    // The signed credential stays attached.
    expect(execFileSync("pdfdetach", ["-list", file], { encoding: "utf8" })).toContain(
      `credential-${certificateId}.json`,
    );
  });

  it("has a language, shows its title, a structure tree in reading order, a link and alt text", async () => {
    const pdf = await PDFDocument.load(await render());
    const catalog = pdf.catalog;
    const lookup = <T>(dict: PDFDict, key: string) => dict.lookup(PDFName.of(key)) as T;
    expect(lookup<PDFString>(catalog, "Lang").decodeText()).toBe("en-US");
    expect(String(lookup<PDFDict>(catalog, "ViewerPreferences").get(PDFName.of("DisplayDocTitle")))).toBe("true");
    expect(String(lookup<PDFDict>(catalog, "MarkInfo").get(PDFName.of("Marked")))).toBe("true");

    const root = lookup<PDFDict>(catalog, "StructTreeRoot");
    const document = lookup<PDFDict>(root, "K");
    expect(String(document.get(PDFName.of("S")))).toBe("/Document");
    const kids = lookup<PDFArray>(document, "K")
      .asArray()
      .map((ref) => pdf.context.lookup(ref as PDFRef) as PDFDict);
    const tags = kids.map((k) => String(k.get(PDFName.of("S"))));
    expect(tags.filter((t) => t === "/H1")).toHaveLength(1);
    expect(tags.indexOf("/H1"), "the title comes before the holder and the course").toBeLessThan(tags.indexOf("/Link"));
    const figure = kids.find((k) => String(k.get(PDFName.of("S"))) === "/Figure")!;
    expect(lookup<PDFString>(figure, "Alt").decodeText()).toContain(verifyUrl);

    // The verify URL is a real link annotation, tied to the Link structure element.
    const page = pdf.getPage(0);
    const annots = page.node
      .Annots()!
      .asArray()
      .map((ref) => pdf.context.lookup(ref as PDFRef) as PDFDict);
    const links = annots.filter((a) => String(a.get(PDFName.of("Subtype"))) === "/Link");
    expect(links).toHaveLength(1);
    const action = lookup<PDFDict>(nth(links, 0), "A");
    expect(lookup<PDFString>(action, "URI").decodeText()).toBe(verifyUrl);
    const linkElement = kids.find((k) => String(k.get(PDFName.of("S"))) === "/Link")!;
    const objr = lookup<PDFArray>(linkElement, "K")
      .asArray()
      .map((x) => pdf.context.lookup(x))
      .find((x) => x && String((x as PDFDict).get?.(PDFName.of("Type"))) === "/OBJR") as PDFDict;
    expect(objr.get(PDFName.of("Obj"))).toBe(page.node.Annots()!.get(0));
    expect(String(page.node.get(PDFName.of("Tabs")))).toBe("/S");
  });
});
