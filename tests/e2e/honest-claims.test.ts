import { describe, expect, it } from "vitest";
import { expectAccessible, useE2E } from "./harness.ts";

// Production, with content/site as shipped: every testimonial there is still a sample (decision 0029).
const e2e = useE2E({ env: { NODE_ENV: "production" } });

describe("the landing page in production", () => {
  it("shows no testimonial section while every testimonial is a sample, and keeps each qualifier beside its figure", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Fixture Basics" }).waitFor();
    expect(await page.getByRole("heading", { name: "What our graduates say" }).count()).toBe(0);
    expect(await page.getByText(/Sample testimonial/).count()).toBe(0);

    const figureCard = page.locator("dt", { hasText: "per session on the practitioner app" }).locator("..");
    expect(await figureCard.innerText()).toMatch(/\$50-150[\s\S]*not a promise of income/);
    await expectAccessible(page);
  });

  it("states the study hours next to the weeks, on the landing page and the course page", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByText("4 weeks · 6 study hours").first().waitFor();
    await page.goto("/course/fixture-basics");
    await page.getByRole("heading", { name: "Fixture Basics", level: 1 }).waitFor();
    expect(await page.locator("main").innerText()).toContain("4 weeks · 6 study hours");
  });
});
