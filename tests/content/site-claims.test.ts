import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadContent } from "#server/content/content-files.ts";
import { loadSiteContent } from "#server/content/site-content.ts";
import { DEFAULT_SITE_CONTENT } from "#server/content/site-content-defaults.ts";
import type { SiteContent } from "#shared/schemas/site-content.ts";
import { figureKind, shownSiteContent, unbackedReason } from "#shared/site-claims.ts";

/** Every figure and claim of the site texts, as the text the rule reads and the backing beside it. */
function claimsOf(content: SiteContent) {
  const { landing, practitionerApp } = content;
  const banner = practitionerApp.banner;
  return [
    { where: "hero.completeIn", text: landing.hero.completeIn.text, claim: landing.hero.completeIn },
    ...landing.figures.map((f) => ({ where: `figure ${f.value}`, text: `${f.value} ${f.label}`, claim: f })),
    ...landing.practitioner.claims.map((c) => ({ where: "practitioner claim", text: c.text, claim: c })),
    ...(banner ? [{ where: "banner", text: `${banner.headline} ${banner.text}`, claim: banner }] : []),
    ...practitionerApp.promo.claims.map((c) => ({ where: "promo claim", text: c.text, claim: c })),
  ];
}

const files = loadSiteContent();

describe.each([
  ["content/site", files],
  ["the defaults", DEFAULT_SITE_CONTENT],
])("the site's claims (%s)", (_name, content) => {
  it("shows every count and earnings figure in production with a source and an as-of date (earnings: sample and period)", () => {
    const shown = claimsOf(shownSiteContent(content, "production"));
    for (const { where, text, claim } of shown) {
      const kind = figureKind(text);
      if (!kind) continue;
      expect(claim.source, `${where}: source`).toBeTruthy();
      expect(claim.asOf, `${where}: as-of date`).toMatch(/^\d{4}-\d{2}/);
      if (kind === "earnings") {
        expect(claim.sample, `${where}: sample of realised earnings`).toBeTruthy();
        expect(claim.period, `${where}: period`).toBeTruthy();
      }
    }
    // The spec's figures stay in the files, to be shown once backed.
    const all = claimsOf(content)
      .map((c) => c.text)
      .join("\n");
    for (const figure of ["2,000+", "1000+", "$50-150", "0%", "24/7"]) expect(all).toContain(figure);
  });

  it('says which fees still apply next to every "0%"', () => {
    for (const { where, text, claim } of claimsOf(content).filter((c) => /\b0%/.test(c.text)))
      expect(`${text} ${claim.qualifier ?? ""}`, where).toMatch(/fees?[^.;]*still apply/i);
  });

  it("sells no affiliate commission, says no 'certified practitioner' and no 'Certification'", () => {
    for (const { where, text } of claimsOf(content)) expect(text, where).not.toMatch(/affiliate|commission/i);
    const everything = JSON.stringify(content);
    expect(everything).not.toMatch(/certified practitioner/i);
    expect(everything).not.toMatch(/\bcertification\b/i);
  });

  it("states the courses' real study hours and weeks wherever it says how long a course takes", () => {
    const courses = loadContent().courses.filter((c) => !c.course.comingSoon);
    const hours = new Set(courses.map((c) => c.course.studyHours));
    const weeks = new Set(courses.map((c) => c.course.duration));
    expect(hours.size, "every full course has the same study hours").toBe(1);
    const text = content.landing.hero.completeIn.text;
    expect(text).toContain(`${[...hours][0]} hours of study, including the practical assessment`);
    expect(text).toContain([...weeks][0]);
    expect(text).not.toMatch(/complete a course in one week/);
  });
});

describe("the backing rule", () => {
  it("knows a count and an earnings figure, and nothing else", () => {
    expect(figureKind("2,000+ graduates")).toBe("count");
    expect(figureKind("1000+ active clients")).toBe("count");
    expect(figureKind("Earn $50-150 per session")).toBe("earnings");
    expect(figureKind("0% platform fees")).toBeNull();
    expect(figureKind("24/7 flexible hours")).toBeNull();
    expect(figureKind("about 5 hours of study")).toBeNull();
  });

  it("needs source and date for a count, and sample and period too for earnings, one missing part at a time", () => {
    const full = {
      source: "app records",
      asOf: "2026-11",
      sample: "median of 140 practitioners",
      period: "2026-06 to 2026-11",
    };
    expect(unbackedReason("1000+ clients", { source: full.source, asOf: full.asOf })).toBeNull();
    expect(unbackedReason("1000+ clients", { source: full.source })).toMatch(/as-of date/);
    expect(unbackedReason("1000+ clients", { asOf: full.asOf })).toMatch(/a source/);
    expect(unbackedReason("$50-150", full)).toBeNull();
    expect(unbackedReason("$50-150", { ...full, sample: undefined })).toMatch(/sample/);
    expect(unbackedReason("$50-150", { ...full, period: undefined })).toMatch(/period/);
    expect(unbackedReason("0% platform fees", {})).toBeNull();
  });

  it("leaves out only the unbacked figures in production, and keeps everything elsewhere", () => {
    const production = shownSiteContent(files, "production");
    expect(production.landing.figures.map((f) => f.value)).toEqual(
      files.landing.figures.filter((f) => !unbackedReason(`${f.value} ${f.label}`, f)).map((f) => f.value),
    );
    expect(production.landing.figures.map((f) => f.value)).toContain("0%");
    expect(shownSiteContent(files, "development")).toEqual({ ...files });
  });
});

describe("titles and descriptions", () => {
  it("say Certificate of Completion, not Certification, wherever the spec's exact words do not fix it", () => {
    for (const file of [
      "index.html",
      "src/client/lib/use-document-meta.ts",
      "src/client/features/landing/landing-page.tsx",
      "src/server/modules/site/page-meta.ts",
    ]) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toContain("Certificate of Completion");
      expect(source, file).not.toMatch(
        /\bcertification (courses|online)\b|Certification Online|Certification courses/i,
      );
    }
    // The catalogue keeps the spec's heading; its page title and description do not repeat it.
    const catalogue = readFileSync("src/client/features/catalogue/catalogue-page.tsx", "utf8");
    expect(catalogue).toContain(">Holistic Wellness Coach Certification Programs<");
    expect(catalogue).toContain("title: `Holistic Wellness Coach Courses with a Certificate of Completion");
    for (const course of loadContent().courses)
      expect(course.course.seo.title, course.id).not.toMatch(/certification/i);
  });
});

describe("the directory", () => {
  it('invites the public to find a coach who holds a Certificate of Completion, never a "certified practitioner"', () => {
    for (const file of [
      "src/client/features/practitioners/practitioners-page.tsx",
      "src/server/modules/site/page-meta.ts",
    ]) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toContain("Find a coach who holds our Certificate of Completion");
      expect(source, file).not.toMatch(/certified practitioner/i);
    }
  });
});
