import { describe, expect, it } from "vitest";
import { expectAccessible, signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();

describe("figures and video in a lesson", () => {
  it("shows the figure from the course's media folder with its alt text, size and caption, and the video with captions, without widening a phone", async () => {
    const page = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    const email = `fig-${Date.now()}@example.com`;
    await signUpInBrowser(page, { firstName: "Fig", lastName: "Ure", email, password: "maple-shade-42" });
    await e2e.enrol(email, "fixture-basics");
    await page.goto("/course/fixture-basics/lesson/alpha-two");

    const figure = page.getByRole("img", { name: "Two boxes joined by an arrow, step one leading to step two." });
    await figure.waitFor();
    // Lesson images load lazily: bring it into view, as a reader scrolling would.
    await figure.scrollIntoViewIfNeeded();
    // The space is reserved from width/height before the image arrives, and the image does arrive.
    await page.waitForFunction(() => {
      const img = document.querySelector("article figure img") as HTMLImageElement | null;
      return img?.complete && img.naturalWidth > 0;
    });
    const box = await figure.boundingBox();
    expect(box!.width / box!.height).toBeCloseTo(2, 1);
    // It fits the lesson column on a phone instead of spilling out of it.
    const article = await page.locator("article.prose-lesson").boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(article!.x + article!.width + 0.5);
    await page.getByText("Step one comes before step two.").waitFor();
    expect(await page.getByRole("link", { name: "Open full size" }).getAttribute("href")).toMatch(
      /^\/media\/fixture-basics\/steps\.svg\?v=[a-f0-9]+$/,
    );

    const video = page.locator("article video");
    expect(await video.getAttribute("title")).toBe("A coach greets a client");
    const track = video.locator("track");
    expect(await track.getAttribute("kind")).toBe("captions");
    const vtt = await page.request.get((await track.getAttribute("src"))!);
    expect(vtt.status()).toBe(200);
    expect(await vtt.text()).toMatch(/^WEBVTT/);

    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });
});
