import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DomUtils, parseDocument } from "htmlparser2";
import { marked } from "marked";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { firstIssue } from "#shared/schemas/common.ts";
import { messageOf } from "../errors.ts";

/**
 * Figures and videos in lessons (decision 0029). A lesson writes them as fenced blocks whose body is YAML:
 *
 * ```figure                         ```video
 * src: plate.svg                    src: intro.mp4 (or an https URL)
 * alt: What the picture shows       title: Accessible name of the video
 * caption: What to take from it     captions: intro.en.vtt (required)
 * width: 640                        caption: What to take from it
 * height: 420                       width: 640
 * ```                               height: 360
 *                                   ```
 * Files live in the course's `media/` folder and are served at /media/<course>/<file>?v=<content hash>.
 */

/** A media file name: lowercase words, one extension the server knows how to serve. */
export const MEDIA_FILE = /^[a-z0-9]+(?:[-.][a-z0-9]+)*\.(svg|png|jpg|jpeg|webp|mp4|webm|vtt)$/;
export const MEDIA_TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  mp4: "video/mp4",
  webm: "video/webm",
  vtt: "text/vtt; charset=utf-8",
};
export const MEDIA_FOLDER = "media";
/** Media files get a policy of their own: an SVG opened on its own tab runs nothing and loads nothing. */
export const MEDIA_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; sandbox";

export class MediaError extends Error {}

/** Where a lesson's media files are, and which of them the lessons used. */
export interface MediaContext {
  courseId: string;
  /** The course folder; its `media/` subfolder holds the files. */
  courseDir: string;
}

const size = z.number().int().min(16).max(4000);
const source = z
  .string()
  .trim()
  .refine((s) => MEDIA_FILE.test(s) || /^https:\/\/[^\s"'<>]+$/.test(s), {
    message: "must be a file name in the course's media folder (like plate-model.svg) or an https URL",
  });
const extensionOf = (src: string) => /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(src)?.[1]?.toLowerCase() ?? "";

export const figureBlockSchema = z.strictObject({
  src: source.refine((s) => ["svg", "png", "jpg", "jpeg", "webp"].includes(extensionOf(s)), {
    message: "a figure is an SVG, PNG, JPEG or WebP image",
  }),
  alt: z
    .string({ message: "alt text is required" })
    .trim()
    .min(10, "alt text must say what the figure shows (at least 10 characters)")
    .max(1500),
  caption: z.string({ message: "a caption is required" }).trim().min(1, "a caption is required").max(600),
  width: size,
  height: size,
});

export const videoBlockSchema = z.strictObject({
  src: source.refine((s) => ["mp4", "webm"].includes(extensionOf(s)), { message: "a video is an MP4 or WebM file" }),
  title: z.string({ message: "a title (the video's accessible name) is required" }).trim().min(3).max(200),
  captions: source.refine((s) => extensionOf(s) === "vtt", {
    message: "captions must be a WebVTT (.vtt) file",
  }),
  captionsLang: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Z]{2})?$/)
    .default("en"),
  captionsLabel: z.string().trim().min(1).max(50).default("English"),
  caption: z.string({ message: "a caption is required" }).trim().min(1, "a caption is required").max(600),
  poster: source.optional(),
  width: size,
  height: size,
});

const escapeAttr = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function parseBlock<T>(kind: string, yaml: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = parseYaml(yaml);
  } catch (error) {
    throw new MediaError(`${kind} block is not valid YAML (${messageOf(error)})`);
  }
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    const issue = firstIssue(result.error);
    throw new MediaError(`${kind} block: ${issue.path.join(".") || "(block)"}: ${issue.message}`);
  }
  return result.data;
}

/** The URL of a media file: https URLs as they are; a local file with a hash of its bytes, so caches can keep it forever. */
function mediaUrl(src: string, media: MediaContext | undefined): string {
  if (src.startsWith("https://")) return src;
  if (!media) throw new MediaError(`media file '${src}' needs a course media folder`);
  const file = join(media.courseDir, MEDIA_FOLDER, src);
  if (!existsSync(file) || !statSync(file).isFile())
    throw new MediaError(`media file '${src}' is not in ${media.courseId}/${MEDIA_FOLDER}/`);
  const version = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
  return `/media/${media.courseId}/${src}?v=${version}`;
}

/** An SVG drawn for one shape and shown in another would be squashed: its viewBox must match width/height. */
function checkSvgShape(src: string, width: number, height: number, media: MediaContext | undefined) {
  if (!media || src.startsWith("https://") || extensionOf(src) !== "svg") return;
  const svg = readFileSync(join(media.courseDir, MEDIA_FOLDER, src), "utf8");
  const viewBox = /<svg\b[^>]*\bviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(svg);
  if (!viewBox) throw new MediaError(`figure '${src}' has no viewBox on its <svg> element`);
  const ratio = Number(viewBox[1]) / Number(viewBox[2]);
  if (Math.abs(ratio - width / height) > 0.02 * ratio)
    throw new MediaError(
      `figure '${src}': width/height ${width}x${height} do not match its viewBox ${viewBox[1]}x${viewBox[2]}`,
    );
}

export function renderFigure(yaml: string, media?: MediaContext): string {
  const f = parseBlock("figure", yaml, figureBlockSchema);
  const url = mediaUrl(f.src, media);
  checkSvgShape(f.src, f.width, f.height, media);
  const caption = marked.parseInline(f.caption, { async: false }) as string;
  const fullSize = url.startsWith("/media/")
    ? ` <a href="${escapeAttr(url)}" target="_blank" rel="noopener">Open full size</a>`
    : "";
  return `<figure><img src="${escapeAttr(url)}" alt="${escapeAttr(f.alt)}" width="${f.width}" height="${f.height}"><figcaption>${caption}${fullSize}</figcaption></figure>\n`;
}

export function renderVideo(yaml: string, media?: MediaContext): string {
  const v = parseBlock("video", yaml, videoBlockSchema);
  const type = MEDIA_TYPES[extensionOf(v.src)];
  const poster = v.poster ? ` poster="${escapeAttr(mediaUrl(v.poster, media))}"` : "";
  const caption = marked.parseInline(v.caption, { async: false }) as string;
  return (
    `<figure><video controls preload="none" playsinline width="${v.width}" height="${v.height}" title="${escapeAttr(v.title)}"${poster}>` +
    `<source src="${escapeAttr(mediaUrl(v.src, media))}" type="${type}">` +
    `<track kind="captions" src="${escapeAttr(mediaUrl(v.captions, media))}" srclang="${v.captionsLang}" label="${escapeAttr(v.captionsLabel)}" default>` +
    `</video><figcaption>${caption}</figcaption></figure>\n`
  );
}

const positiveNumber = (value: string | undefined) => value !== undefined && /^\d+$/.test(value) && Number(value) > 0;

/**
 * The rules every lesson's final HTML keeps, however the figure or video was written (block or raw HTML):
 * images have alt text and a size; figures have a caption; videos have a size, controls and a captions track.
 */
export function mediaProblems(html: string): string[] {
  const problems: string[] = [];
  const doc = parseDocument(html);
  for (const img of DomUtils.getElementsByTagName("img", doc)) {
    const src = img.attribs.src ?? "";
    if (!(img.attribs.alt ?? "").trim()) problems.push(`image '${src}' has no alt text`);
    if (!positiveNumber(img.attribs.width) || !positiveNumber(img.attribs.height))
      problems.push(`image '${src}' needs width and height, so the page does not shift as it loads`);
  }
  for (const figure of DomUtils.getElementsByTagName("figure", doc)) {
    const caption = DomUtils.getElementsByTagName("figcaption", figure)[0];
    if (!caption || !DomUtils.textContent(caption).trim()) problems.push("a figure has no caption (figcaption)");
  }
  for (const video of DomUtils.getElementsByTagName("video", doc)) {
    const tracks = DomUtils.getElementsByTagName("track", video).filter(
      (t) => (t.attribs.kind === "captions" || t.attribs.kind === "subtitles") && t.attribs.src,
    );
    if (tracks.length === 0) problems.push("a video has no captions track");
    if (!positiveNumber(video.attribs.width) || !positiveNumber(video.attribs.height))
      problems.push("a video needs width and height, so the page does not shift as it loads");
    if (!("controls" in video.attribs)) problems.push("a video needs controls");
  }
  return problems;
}
