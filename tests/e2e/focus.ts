import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement).catch(() => false);

/** Waits until the element has focus (the app moves focus after renders and requests). */
export async function expectFocused(locator: Locator, what: string) {
  await expect.poll(() => isFocused(locator), { message: `focus on ${what}`, timeout: 10_000 }).toBe(true);
}

/** Presses Tab until the target has focus; every stop on the way must be inside the page's main content. */
export async function tabTo(page: Page, target: Locator, what: string, maxStops = 12) {
  for (let stop = 0; stop < maxStops; stop++) {
    await page.keyboard.press("Tab");
    if (await isFocused(target)) return;
    expect(
      await page.evaluate(() => !!document.activeElement?.closest("main")),
      `Tab stop ${stop + 1} on the way to ${what} is inside main`,
    ).toBe(true);
  }
  throw new Error(`${what} not reached with Tab`);
}

/** Presses Tab inside an open dialog (its focus trap keeps every stop inside) until the target has focus. */
export async function tabInDialogTo(page: Page, target: Locator, what: string, maxStops = 4) {
  for (let stop = 0; stop < maxStops && !(await isFocused(target)); stop++) await page.keyboard.press("Tab");
  await expectFocused(target, `${what}, by Tab`);
}
