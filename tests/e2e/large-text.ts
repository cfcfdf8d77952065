import type { Page } from "playwright-core";
import { expect } from "vitest";

/*
 * Text zoom as the browser does it: Chrome's font-size setting (Settings > Appearance > Font size)
 * changes the default font size, and CDP's Page.setFontSizes sets that same preference. 32 px is
 * 200% of the 16 px default; the app's rem-based text and spacing grow with it, as they do for a
 * person who chose it. (A style on <html> would model a page author's choice, not the reader's.)
 */
export async function setTextSize200(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
}

/** The page is at 200% text and does not scroll sideways; a failure names the texts past the edge. */
export async function expectNoSideScrollAt200(page: Page, name: string) {
  const { root, scrollWidth, width, sticking } = await page.evaluate(() => {
    const sticking: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      const right = range.getBoundingClientRect().right;
      if (right > window.innerWidth + 0.5) sticking.push(`${n.textContent?.slice(0, 30)} (${Math.round(right)} px)`);
    }
    return {
      root: getComputedStyle(document.documentElement).fontSize,
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
      sticking,
    };
  });
  expect(root, "text at 200%").toBe("32px");
  expect(scrollWidth, `sideways scrolling on ${name} at 200% text: ${sticking.join("; ")}`).toBeLessThanOrEqual(width);
}
