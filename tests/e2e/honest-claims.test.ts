import { describe, expect, it } from "vitest";
import { expectAccessible, useE2E } from "./harness.ts";

// Production, with content/site as shipped: every testimonial there is still a sample (decision 0029).
const e2e = useE2E({ env: { NODE_ENV: "production" } });

describe("the landing page in production", () => {
  it("shows no testimonial section while every testimonial is a sample, no figure without its source and date, and each qualifier beside its figure", async () => {
    const page = await e2e.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Fixture Basics" }).waitFor();
    expect(await page.getByRole("heading", { name: "What our graduates say" }).count()).toBe(0);
    expect(await page.getByText(/Sample testimonial/).count()).toBe(0);

    // As shipped, no count or earnings figure has a source and an as-of date: production leaves them out.
    const main = await page.locator("main").innerText();
    for (const unbacked of ["$50-150", "2,000+", "1000+"]) expect(main).not.toContain(unbacked);
    expect(main).not.toContain("not shown in production");
    const feeCard = page.locator("dt", { hasText: "platform fees" }).locator("..");
    expect(await feeCard.innerText()).toMatch(/0%[\s\S]*card-processing fees on each payment still apply/);
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
