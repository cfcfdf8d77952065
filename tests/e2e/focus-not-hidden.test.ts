import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible, toastText, useE2E } from "./harness.ts";

const e2e = useE2E();

/**
 * How much of the focused control is under the sticky header or a toast, in px of its height (0 when
 * nothing covers it): their boxes overlap and, in the overlap, the header or toast is what is drawn on
 * top (the skip link, drawn over the header, is not covered). Controls inside the header or the toast
 * do not count: they are on top.
 */
const coveredNow = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return { what: "(body)", covered: 0 };
    const r = active.getBoundingClientRect();
    const what = `${active.tagName.toLowerCase()} "${(active.innerText || active.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
    const onTop = (cover: Element, top: number, bottom: number) => {
      const hit = document.elementFromPoint(r.left + r.width / 2, (top + bottom) / 2);
      return !!hit && cover.contains(hit);
    };
    let covered = 0;
    const header = document.querySelector("header");
    if (header && !header.contains(active) && getComputedStyle(header).position === "sticky") {
      const bottom = Math.min(r.bottom, header.getBoundingClientRect().bottom);
      if (bottom > r.top && onTop(header, r.top, bottom)) covered = bottom - r.top;
    }
    const toast = document.querySelector('[data-testid="toast"]');
    if (toast && !toast.contains(active)) {
      const top = Math.max(r.top, toast.getBoundingClientRect().top);
      if (r.bottom > top && onTop(toast, top, r.bottom)) covered = Math.max(covered, r.bottom - top);
    }
    return { what, covered: Math.round(covered) };
  });

/** Shift+Tab from the end of the page to its top; every focused control is in full view. */
async function shiftTabThrough(page: Page, name: string, maxStops = 80) {
  await page.keyboard.press("End");
  await page.locator("footer a").last().focus();
  const seen: string[] = [];
  for (let stop = 0; stop < maxStops; stop++) {
    const { what, covered } = await coveredNow(page);
    seen.push(what);
    expect(covered, `${name}: ${what} (Shift+Tab stop ${stop + 1}) is covered by ${covered} px`).toBe(0);
    if (await page.evaluate(() => document.activeElement?.textContent === "Skip to content")) return seen;
    await page.keyboard.press("Shift+Tab");
  }
  throw new Error(`${name}: the skip link not reached in ${maxStops} Shift+Tab stops`);
}

describe("a focused control is never hidden", () => {
  for (const width of [1280, 390])
    it(`Shift+Tab through a course page at ${width} px: nothing under the sticky header`, async () => {
      // A short window, so the fixture course page scrolls as a real one does.
      const page = await e2e.newPage({ viewport: { width, height: 480 } });
      await page.goto("/course/fixture-basics");
      await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
      const stops = await shiftTabThrough(page, `course page at ${width} px`);
      expect(stops.length, "controls passed").toBeGreaterThan(8);
      await expectAccessible(page, `course page at ${width} px`);
    });

  it("Shift+Tab through the landing page at 1280 px", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await shiftTabThrough(page, "landing page", 120);
  });

  it("a toast at the bottom of a phone screen leaves the focused footer links in view", async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 700 } });
    await page.goto("/login");
    const main = page.locator("main");
    await main.getByLabel("Email").fill("nobody@example.com");
    await main.getByLabel("Password", { exact: true }).fill("wrong-password-1");
    await main.getByRole("button", { name: "Sign In", exact: true }).click();
    const toast = toastText(page);
    await toast.getByText("Sign In Failed").waitFor();
    // Hovering pauses the toast's timer (WCAG 2.2.1), so it stays while focus moves.
    await toast.hover();
    const footerLinks = page.locator("footer a");
    const count = await footerLinks.count();
    expect(count).toBeGreaterThan(1);
    await footerLinks.first().focus();
    for (let i = 0; i < count; i++) {
      const { what, covered } = await coveredNow(page);
      expect(covered, `${what} under the toast by ${covered} px`).toBe(0);
      await page.keyboard.press("Tab");
    }
    expect(await toast.isVisible(), "the toast was there throughout").toBe(true);
  });
});
