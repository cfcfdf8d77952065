const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Puts every table of a lesson's (already sanitised) HTML in its own scrolling region, so a wide
 * table scrolls sideways inside the lesson instead of widening the page. The region is focusable
 * (keyboard users can scroll it) and named after the table's caption, else its position.
 */
export function wrapWideTables(html: string): string {
  let n = 0;
  return html.replace(/<table\b[^>]*>[\s\S]*?<\/table>/gi, (table) => {
    n += 1;
    const caption = /<caption\b[^>]*>([\s\S]*?)<\/caption>/i.exec(table)?.[1];
    const label = (caption && stripTags(caption)) || `Table ${n}`;
    const safe = label
      .replace(/&(?!(?:[a-z]+|#\d+);)/gi, "&amp;")
      .replace(/"/g, "&quot;")
      .replace(/</g, "&lt;");
    return `<div class="table-scroll" role="region" tabindex="0" aria-label="${safe} (scrolls sideways)">${table}</div>`;
  });
}
