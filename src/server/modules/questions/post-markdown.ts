import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

/**
 * Posts are a Markdown subset (decision 0056): paragraphs, line breaks, lists, bold, italic, links,
 * inline code and code blocks. Anything else a learner types (headings, images, tables, raw HTML)
 * is reduced to its text by the sanitiser, which is the only thing that decides what reaches a page.
 */
const markdown = new Marked({
  async: false,
  gfm: true,
  renderer: {
    // An image becomes its alternative text: posts carry no images.
    image: ({ text }) => escapeText(text),
  },
});

const escapeText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "ul", "ol", "li", "strong", "em", "a", "code", "pre", "blockquote"],
  // `rel` is always the transform's below, whatever the post said.
  allowedAttributes: { a: ["href", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // Links a learner posts are theirs, not the academy's: no ranking credit, no opener access.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "nofollow ugc noopener noreferrer" },
    }),
    b: "strong",
    i: "em",
    // Headings read as paragraphs: a post has no outline of its own.
    ...Object.fromEntries(["h1", "h2", "h3", "h4", "h5", "h6"].map((h) => [h, "p"])),
  },
};

export interface RenderedPost {
  html: string;
  /** Whether the post links anywhere (a new account's first posts with links wait for moderation). */
  hasLinks: boolean;
}

/** Markdown to the sanitised HTML every page and e-mail shows. */
export function renderPost(source: string): RenderedPost {
  const html = sanitizeHtml(markdown.parse(source, { async: false }), OPTIONS).trim();
  return { html, hasLinks: /<a\s/i.test(html) };
}

/** The post's words without markup, for e-mail excerpts and search hints. */
export function plainTextOf(html: string, max = 280): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
