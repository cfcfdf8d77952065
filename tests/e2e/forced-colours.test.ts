import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible, useE2E } from "./harness.ts";

const e2e = useE2E();

/** What forced colours leave of an element's look: its colours, borders and outline as computed. */
const look = (locator: Locator) =>
  locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      background: s.backgroundColor,
      color: s.color,
      border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
      outline: `${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor}`,
    };
  });

/** The element's pixels, for states that differ only in what is drawn inside it. */
const pixels = async (locator: Locator) => (await locator.screenshot({ animations: "disabled" })).toString("base64");

/**
 * The colours of the element's left edge (8 px of its middle row), where its frame and fill show
 * and its text does not: computed styles alone would count a fill the system then paints like its
 * surroundings (forced colours keep only a colour's alpha) as a difference.
 */
async function leftEdge(page: Page, locator: Locator) {
  const png = (await locator.screenshot({ animations: "disabled" })).toString("base64");
  return page.evaluate(async (png) => {
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(image, 0, 0);
    return [...ctx.getImageData(0, Math.floor(image.height / 2), 8, 1).data].join(",");
  }, png);
}

/** Nothing hovered or focused, so only the state itself is compared. */
async function settle(page: Page) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

async function forcedColoursPage(width = 1280): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width, height: 900 } });
  await page.emulateMedia({ forcedColors: "active" });
  return page;
}

describe("forced colours (Windows High Contrast)", () => {
  it("the emulation is on (the page sees forced colours)", async () => {
    const page = await forcedColoursPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);
  });

  it("shows the chosen answer, the progress bar and the primary button in system colours", async () => {
    const page = await forcedColoursPage();
    // The first module's quiz is open to visitors as a preview.
    await page.goto("/course/fixture-basics/quiz/alpha");
    const radios = page.locator("main").getByRole("radio");
    await radios.first().waitFor();
    const unchosenBefore = await pixels(radios.nth(1));
    await radios.first().click();
    expect(await radios.first().getAttribute("aria-checked")).toBe("true");
    await settle(page);

    // The radio's dot: the chosen radio looks different from an unchosen one, pixel for pixel.
    expect(await pixels(radios.first()), "chosen radio vs unchosen radio").not.toBe(await pixels(radios.nth(1)));
    expect(await pixels(radios.nth(1)), "an unchosen radio keeps its look").toBe(unchosenBefore);
    // Its label's frame.
    const label = (radio: Locator) => radio.locator("xpath=ancestor::label");
    expect(await leftEdge(page, label(radios.first())), "chosen answer vs unchosen answer").not.toBe(
      await leftEdge(page, label(radios.nth(1))),
    );

    // The primary button (Next, enabled once answered) vs a secondary one (Previous).
    const next = page.getByRole("button", { name: "Next" });
    const previous = page.getByRole("button", { name: "Previous" });
    const primary = await look(next);
    expect(primary, "primary vs secondary button").not.toEqual(await look(previous));
    expect(primary.border, "the primary button keeps a frame").not.toMatch(/^0px/);

    // The progress bar's filled part is drawn.
    const fill = page.getByRole("progressbar").locator("> div");
    expect((await look(fill)).background).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    expect((await look(fill)).background, "the fill differs from its track").not.toBe(
      (await look(page.getByRole("progressbar"))).background,
    );
    // axe judges the author's colours, which forced colours replace: it runs with them off.
    await page.emulateMedia({ forcedColors: "none" });
    await expectAccessible(page, "quiz with a chosen answer");
  });

  it("shows which sign-in tab is active", async () => {
    const page = await forcedColoursPage();
    await page.goto("/login");
    const active = page.getByRole("tab", { name: "Sign In", selected: true });
    await active.waitFor();
    const inactive = page.getByRole("tab", { name: "Sign Up" });
    await settle(page);
    expect(await leftEdge(page, active), "active tab vs inactive tab").not.toBe(await leftEdge(page, inactive));
  });
});
