import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MarkdownManager } from "@tiptap/markdown";
import { describe, expect, it } from "vitest";
import { cleanPastedHtml, isSafeHref, lessonExtensions } from "#client/features/studio/lesson-extensions.ts";
import { renderLessonBody } from "#server/content/content-files.ts";

const manager = () => new MarkdownManager({ extensions: lessonExtensions() });
const roundTrip = (markdown: string) => {
  const m = manager();
  return m.serialize(m.parse(markdown));
};
/** The page a lesson makes, with a loose list's paragraphs as a tight list's (the editor writes lists tight). */
const html = (markdown: string, file: string) =>
  renderLessonBody(markdown, "md", { courseId: courseOf(file), courseDir: join("content/courses", courseOf(file)) })
    .replace(/\s+/g, " ")
    .replace(/> </g, "><")
    .replace(/<li><p>([\s\S]*?)<\/p><\/li>/g, "<li>$1</li>")
    .trim();
const courseOf = (file: string) => file.split("/")[2] ?? "";
const bodyOf = (file: string) => readFileSync(file, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");

const lessons = (() => {
  const root = "content/courses";
  const files: string[] = [];
  for (const course of readdirSync(root)) {
    const modules = join(root, course, "modules");
    let names: string[] = [];
    try {
      names = readdirSync(modules);
    } catch {
      continue;
    }
    for (const m of names)
      for (const f of readdirSync(join(modules, m))) if (f.endsWith(".md")) files.push(join(modules, m, f));
  }
  return files;
})();

describe("the lesson editor's Markdown", () => {
  it.each(lessons)("round-trips %s to the same lesson page", (file) => {
    const body = bodyOf(file);
    expect(html(roundTrip(body), file)).toEqual(html(body, file));
  });
});

describe("what the lesson editor takes from a paste", () => {
  it("drops a word processor's comments, styles, classes, Office tags and event attributes", () => {
    const word =
      "<!--[if gte mso 9]><xml><o:OfficeDocumentSettings/></xml><![endif]--><style>p.MsoNormal{margin:0}</style>" +
      '<p class="MsoNormal" style="mso-line-height-rule:exactly;color:red" onclick="steal()">Fat has <b>9</b> kcal<o:p></o:p></p>' +
      "<script>steal()</script>";
    expect(cleanPastedHtml(word)).toBe("<p>Fat has <b>9</b> kcal</p>");
  });

  it("links only to web and mail addresses and the academy's own pages", () => {
    for (const ok of ["https://example.org/a", "http://example.org", "mailto:a@b.example", "/course/x", "#part"])
      expect(isSafeHref(ok), ok).toBe(true);
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:text/html,x",
      "//evil.example/",
      "vbscript:x",
    ])
      expect(isSafeHref(bad), bad).toBe(false);
  });
});
