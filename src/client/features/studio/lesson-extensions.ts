import { type AnyExtension, Node } from "@tiptap/core";
import { OrderedList } from "@tiptap/extension-list";
import { TableKit } from "@tiptap/extension-table";
import { Markdown } from "@tiptap/markdown";
import StarterKit from "@tiptap/starter-kit";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";

/**
 * The lesson editor's document model: what the course files' Markdown can say (GFM, tables, callouts
 * as block quotes) plus the project's `figure` and `video` blocks (YAML in a fenced block,
 * server/content/lesson-media.ts) and raw HTML blocks (`<details>` model answers), which pass through
 * unchanged. The editor reads and writes Markdown with TipTap's Markdown extension; anything pasted
 * is parsed into this schema, so what the schema has no node or mark for never reaches the lesson.
 */

export interface FigureAttrs {
  src: string;
  alt: string;
  caption: string;
  width: number;
  height: number;
}
export interface VideoAttrs {
  src: string;
  title: string;
  captions: string;
  caption: string;
  width: number;
  height: number;
}

const FIGURE_KEYS = ["src", "alt", "caption", "width", "height"] as const;
const VIDEO_KEYS = ["src", "title", "captions", "caption", "width", "height"] as const;

/** A block's YAML as attributes: the keys the node edits, and the others kept as they were. */
function blockAttrs(text: string, keys: readonly string[]) {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch {
    value = null;
  }
  const record = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const attrs: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) (keys.includes(k) ? attrs : extra)[k] = v;
  return { ...attrs, extra };
}

function blockMarkdown(lang: string, attrs: Record<string, unknown>, keys: readonly string[]) {
  const value: Record<string, unknown> = {};
  for (const k of keys) if (attrs[k] !== "" && attrs[k] !== null && attrs[k] !== undefined) value[k] = attrs[k];
  Object.assign(value, attrs.extra ?? {});
  return `\`\`\`${lang}\n${stringifyYaml(value, { lineWidth: 0 })}\`\`\``;
}

function mediaBlock(name: "figure" | "video", keys: readonly string[], defaults: Record<string, unknown>) {
  return Node.create<{ nodeView?: unknown }>({
    name,
    group: "block",
    atom: true,
    draggable: true,
    selectable: true,
    // Tried before the code block for the same `code` token: only its own fence language is taken.
    priority: 150,
    addAttributes() {
      const attrs: Record<string, { default: unknown }> = { extra: { default: {} } };
      for (const k of keys) attrs[k] = { default: defaults[k] ?? "" };
      return attrs;
    },
    parseHTML() {
      return [{ tag: `div[data-block="${name}"]` }];
    },
    renderHTML({ HTMLAttributes }) {
      return ["div", { "data-block": name, "data-src": HTMLAttributes.src ?? "" }];
    },
    markdownTokenName: "code",
    parseMarkdown(token, helpers) {
      if (token.lang !== name) return [];
      return helpers.createNode(name, blockAttrs(String(token.text ?? ""), keys));
    },
    renderMarkdown(node) {
      return blockMarkdown(name, node.attrs ?? {}, keys);
    },
  });
}

export const FigureBlock = mediaBlock("figure", FIGURE_KEYS, { width: 640, height: 420 });
export const VideoBlock = mediaBlock("video", VIDEO_KEYS, { width: 640, height: 360 });

/** A raw HTML block of the file (a `<details>` model answer), kept as written. */
export const HtmlBlock = Node.create({
  name: "htmlBlock",
  group: "block",
  atom: true,
  addAttributes() {
    return { html: { default: "" } };
  },
  parseHTML() {
    return [{ tag: "pre[data-html-block]", getAttrs: (el) => ({ html: (el as HTMLElement).textContent ?? "" }) }];
  },
  renderHTML({ node }) {
    return ["pre", { "data-html-block": "", class: "studio-html-block" }, String(node.attrs.html)];
  },
  markdownTokenName: "html",
  parseMarkdown(token, helpers) {
    if (!token.block) return [];
    return helpers.createNode("htmlBlock", { html: String(token.raw ?? token.text ?? "").trim() });
  },
  renderMarkdown(node) {
    return String(node.attrs?.html ?? "");
  },
});

/** Word processors' markup that says nothing the lesson keeps: comments, styles, classes, Office namespaces. */
export function cleanPastedHtml(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<style[\s\S]*?<\/style>/gi, "")
    .replace(/<script[\s\S]*?<\/script>/gi, "")
    .replace(/<\/?(o|w|m|v|st1):[^>]*>/gi, "")
    .replace(/\s(style|class|lang|on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "");
}

/** Links only to web and mail addresses and the academy's own pages. */
export function isSafeHref(url: string): boolean {
  return /^(https?:|mailto:|\/(?!\/)|#)/i.test(url.trim());
}

const listTokenizer = OrderedList.config.markdownTokenizer;
/**
 * Numbered lists as the lesson pages read them (GFM: digits only). TipTap's own tokenizer also takes
 * letters, so a paragraph opening "Mr. Adeyemi" would become a list.
 */
const NumberedList = OrderedList.extend({
  markdownTokenizer: listTokenizer && {
    ...listTokenizer,
    tokenize: (src, tokens, lexer) =>
      /^ {0,3}\d{1,9}[.)](\s|$)/.test(src) ? listTokenizer.tokenize(src, tokens, lexer) : undefined,
  },
});

/** The editor's extensions; the editor passes the figure and video blocks with their node views. */
export function lessonExtensions(blocks: { figure?: AnyExtension; video?: AnyExtension } = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4] },
      code: {},
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        isAllowedUri: (url) => isSafeHref(url),
      },
      underline: false,
      orderedList: false,
    }),
    NumberedList,
    TableKit.configure({ table: { resizable: false } }),
    blocks.figure ?? FigureBlock,
    blocks.video ?? VideoBlock,
    HtmlBlock,
    Markdown.configure({ markedOptions: { gfm: true } }),
  ];
}
