import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();
const COURSES = fileURLToPath(new URL("../../content/courses", import.meta.url));

/** WCAG relative luminance of an sRGB colour (0-255 channels). */
type Rgb = [number, number, number];

function luminance([r, g, b]: Rgb) {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a: Rgb, b: Rgb) => {
  const [la, lb] = [luminance(a), luminance(b)];
  const [hi, lo] = [Math.max(la, lb), Math.min(la, lb)];
  return (hi + 0.05) / (lo + 0.05);
};

/**
 * The lowest contrast between each text element in `selector` and every rendered pixel behind it:
 * the text is made transparent, the region screenshotted, and its pixels read back through a canvas.
 */
async function lowestTextContrast(page: Page, selector: string, minTexts = 3) {
  const texts = await page.evaluate((sel) => {
    const root = document.querySelector(sel)!;
    const origin = root.getBoundingClientRect();
    return [...root.querySelectorAll<HTMLElement>("h1, p, a, span")]
      .filter((el) => {
        const white = (e: Element) => getComputedStyle(e).color === "rgb(255, 255, 255)";
        return el.innerText.trim() && white(el) && [...el.querySelectorAll("*")].every(white);
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        return {
          text: el.innerText.trim().slice(0, 40),
          x: r.x - origin.x,
          y: r.y - origin.y,
          w: r.width,
          h: r.height,
        };
      });
  }, selector);
  expect(texts.length, `white texts found in ${selector}`).toBeGreaterThanOrEqual(minTexts);
  const hideText = await page.addStyleTag({
    content: `${selector} * { color: transparent !important; text-decoration: none !important; }`,
  });
  const png = (await page.locator(selector).screenshot()).toString("base64");
  await hideText.evaluate((el) => (el as Element).remove());
  const results = await page.evaluate(
    async ({ png, texts, selector }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(image, 0, 0);
      const scale = image.width / document.querySelector<HTMLElement>(selector)!.offsetWidth;
      return texts.map((t) => {
        const data = ctx.getImageData(
          Math.floor(t.x * scale),
          Math.floor(t.y * scale),
          Math.max(1, Math.floor(t.w * scale)),
          Math.max(1, Math.floor(t.h * scale)),
        ).data;
        const pixels: [number, number, number][] = [];
        for (let i = 0; i + 2 < data.length; i += 4) pixels.push([data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0]);
        return { text: t.text, pixels };
      });
    },
    { png, texts, selector },
  );
  return results.map(({ text, pixels }) => ({
    text,
    lowest: Math.min(...pixels.map((p) => contrast(p, [255, 255, 255]))),
  }));
}

describe("what people see", () => {
  it("keeps every white text on a course header at 4.5:1 or more against every pixel behind it, for every course's gradient", async () => {
    const gradients = [
      ...new Set(
        readdirSync(COURSES).map(
          (dir) =>
            (JSON.parse(readFileSync(join(COURSES, dir, "course.json"), "utf8")) as { gradient: string }).gradient,
        ),
      ),
    ];
    expect(gradients.length).toBeGreaterThan(3);
    const page = await e2e.newPage();
    await page.goto("/course/fixture-basics");
    await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
    for (const gradient of gradients) {
      // The fixture course wears each real course's gradient in turn (the built CSS has them all).
      await page.locator("[data-testid=course-header]").evaluate((el, g) => {
        const classes = (el.getAttribute("class") ?? "").replace(/\b(from|via|to)-[a-z]+-\d+\b/g, "");
        el.setAttribute("class", `${classes} ${g}`);
      }, gradient);
      const results = await lowestTextContrast(page, "[data-testid=course-header]");
      for (const { text, lowest } of results)
        expect(lowest, `contrast behind "${text}" on ${gradient}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("keeps the catalogue's earnings banner at 4.5:1 or more against every pixel behind it", async () => {
    const page = await e2e.newPage();
    await signUpInBrowser(page, {
      firstName: "Cora",
      lastName: "Contrast",
      email: `cora-${Date.now()}@example.com`,
      password: "harbour-light-51",
    });
    await page.locator("[data-testid=earnings-banner] p").waitFor();
    const results = await lowestTextContrast(page, "[data-testid=earnings-banner]", 2);
    for (const { text, lowest } of results) expect(lowest, `contrast behind "${text}"`).toBeGreaterThanOrEqual(4.5);
  });

  it("under reduced motion nothing animates or transitions, and axe finds nothing serious", async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/course/fixture-basics");
    await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
    const moving = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>("body *")]
          .map((el) => getComputedStyle(el))
          .filter(
            (s) => s.animationName !== "none" || s.transitionDuration.split(",").some((d) => Number.parseFloat(d) > 0),
          ).length,
    );
    expect(moving, "elements that animate or transition").toBe(0);
    const spinner = await page.evaluate(() => {
      const el = document.createElement("div");
      el.className = "animate-spin animate-pulse";
      document.body.append(el);
      return getComputedStyle(el).animationName;
    });
    expect(spinner).toBe("none");
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, "horizontal scrolling at 390 px").toBeLessThanOrEqual(0);
    await expectAccessible(page, "course page, reduced motion");
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(page, "landing, reduced motion");
    expect(await page.getByText(/^Sample testimonial/).count()).toBe(3);
  });
});
