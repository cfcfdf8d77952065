import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../setup/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  const clientDir = mkdtempSync(join(tmpdir(), "client-"));
  writeFileSync(join(clientDir, "index.html"), "<!doctype html><title>app shell</title>");
  t = await createTestApp({ clientDir });
});
afterAll(async () => t?.close());

describe("what the server tells browsers and crawlers about pages", () => {
  it("sends the app for every path, with 200 for the app's routes and 404 for unknown ones", async () => {
    for (const url of ["/", "/login?tab=signup", "/course/fixture-basics", "/course/x/lesson/y", "/verify/ABC"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain("app shell");
    }
    for (const url of ["/no/such/page", "/course/x/lesson", "/loginx", "/course/x/lesson/y/extra"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, "the app still renders its own 404 page").toContain("app shell");
    }
    const api = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: "Not found" });
  });

  it("every route the app declares is in the shared route table", () => {
    const routes = readFileSync("src/client/app/routes.tsx", "utf8");
    const paths = [...routes.matchAll(/<Route\s+path=(\S+)/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths)
      expect(path, "use routePatterns for every route").toMatch(/^\{routePatterns\.\w+\}$|^"\*"$/);
  });

  it("serves robots.txt pointing at a sitemap of the public pages and the open courses", async () => {
    const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers["content-type"]).toContain("text/plain");
    expect(robots.body).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
    expect(robots.body).toContain("Disallow: /admin");

    const sitemap = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${TEST_ORIGIN}/`);
    expect(locs).toContain(`${TEST_ORIGIN}/terms`);
    expect(locs).toContain(`${TEST_ORIGIN}/course/fixture-basics`);
    expect(locs).not.toContain(`${TEST_ORIGIN}/course/fixture-soon`);
    expect(locs.some((loc) => loc.includes("/admin") || loc.includes("/checkout"))).toBe(false);
  });
});
