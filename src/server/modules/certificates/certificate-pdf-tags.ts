import {
  PDFOperatorNames as Ops,
  type PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  type PDFPage,
  type PDFRef,
  PDFString,
} from "pdf-lib";

type Tag = "H1" | "P" | "Figure" | "Link";
interface Element {
  tag: Tag;
  mcid: number;
  alt?: string;
  /** A link's annotation, tied to its structure element by an object reference. */
  annotation?: PDFRef;
}

/**
 * A tagged PDF with pdf-lib's low-level objects (pdf-lib draws but does not tag): every drawing
 * call is wrapped in marked content, either a structure element's (BDC with an MCID, in reading
 * order) or an artifact's (decoration); `finish` writes the structure tree (Document > H1, P,
 * Figure with alt text, Link with its annotation), the parent tree, MarkInfo, the language and
 * DisplayDocTitle. One page only, as the certificate has.
 */
export function createTagger(pdf: PDFDocument, page: PDFPage, lang: string, author: string) {
  const context = pdf.context;
  const elements: Element[] = [];
  const begin = (tag: string, properties?: Record<string, number>) =>
    page.pushOperators(
      properties
        ? // A property list is written inline like any operand; pdf-lib's operand type omits dictionaries.
          PDFOperator.of(Ops.BeginMarkedContentSequence, [
            PDFName.of(tag),
            context.obj(properties) as unknown as PDFName,
          ])
        : PDFOperator.of(Ops.BeginMarkedContent, [PDFName.of(tag)]),
    );
  const end = () => page.pushOperators(PDFOperator.of(Ops.EndMarkedContent));

  return {
    /** Content that is part of the document, read in the order marked. */
    async mark<T>(tag: Tag, draw: () => T | Promise<T>, options: { alt?: string } = {}): Promise<Element> {
      const element: Element = { tag, mcid: elements.length, alt: options.alt };
      elements.push(element);
      begin(tag, { MCID: element.mcid });
      await draw();
      end();
      return element;
    },
    /** Decoration (frames, rules): skipped by assistive technology. */
    artifact(draw: () => void) {
      begin("Artifact");
      draw();
      end();
    },
    /** A real link over the marked link text, reachable by Tab in readers that follow structure. */
    link(element: Element, rect: [number, number, number, number], uri: string, contents: string) {
      const annotation = context.register(
        context.obj({
          Type: "Annot",
          Subtype: "Link",
          Rect: rect,
          Border: [0, 0, 0],
          Contents: PDFString.of(contents),
          StructParent: 1,
          A: { Type: "Action", S: "URI", URI: PDFString.of(uri) },
        }),
      );
      page.node.addAnnot(annotation);
      element.annotation = annotation;
    },
    finish(title: string) {
      const pageRef = page.ref;
      const rootRef = context.nextRef();
      const documentRef = context.nextRef();
      const refs = elements.map((e) => {
        const kids = e.annotation
          ? [PDFNumber.of(e.mcid), context.obj({ Type: "OBJR", Obj: e.annotation, Pg: pageRef })]
          : PDFNumber.of(e.mcid);
        const dict = context.obj({ Type: "StructElem", S: e.tag, P: documentRef, Pg: pageRef });
        dict.set(PDFName.of("K"), Array.isArray(kids) ? context.obj(kids) : kids);
        if (e.alt) dict.set(PDFName.of("Alt"), PDFString.of(e.alt));
        return context.register(dict);
      });
      context.assign(
        documentRef,
        context.obj({ Type: "StructElem", S: "Document", P: rootRef, K: refs, T: PDFString.of(title) }),
      );
      const linkRef = refs[elements.findIndex((e) => e.annotation)];
      const nums: (number | PDFRef | ReturnType<typeof context.obj>)[] = [0, context.obj(refs)];
      if (linkRef) nums.push(1, linkRef);
      context.assign(
        rootRef,
        context.obj({ Type: "StructTreeRoot", K: documentRef, ParentTree: { Nums: nums }, ParentTreeNextKey: 2 }),
      );
      page.node.set(PDFName.of("StructParents"), PDFNumber.of(0));
      // Tab order follows the structure (PDF/UA).
      page.node.set(PDFName.of("Tabs"), PDFName.of("S"));
      const catalog = pdf.catalog;
      catalog.set(PDFName.of("StructTreeRoot"), rootRef);
      catalog.set(PDFName.of("MarkInfo"), context.obj({ Marked: true }));
      catalog.set(PDFName.of("Lang"), PDFString.of(lang));
      catalog.set(PDFName.of("ViewerPreferences"), context.obj({ DisplayDocTitle: true }));
      // PDF/UA asks for XMP metadata with its identifier and the title; a metadata stream stays uncompressed.
      const xmp = new TextEncoder().encode(xmpMetadata(title, lang, author));
      catalog.set(PDFName.of("Metadata"), context.register(context.stream(xmp, { Type: "Metadata", Subtype: "XML" })));
    },
  };
}

const xmlText = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** The document's XMP packet: PDF/UA-1's identifier, the title (as in the Info dictionary), language and author. */
export function xmpMetadata(title: string, lang: string, author: string): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <pdfuaid:part>1</pdfuaid:part>
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(title)}</rdf:li></rdf:Alt></dc:title>
      <dc:language><rdf:Bag><rdf:li>${xmlText(lang)}</rdf:li></rdf:Bag></dc:language>
      <dc:creator><rdf:Seq><rdf:li>${xmlText(author)}</rdf:li></rdf:Seq></dc:creator>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
