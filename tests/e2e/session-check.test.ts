import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpInBrowser, useE2E } from "./harness.ts";

const e2e = useE2E();

/** Loads a path afresh and counts the sign-in checks the page makes once everything has settled. */
async function sessionChecksOnLoad(page: Page, path: string) {
  let count = 0;
  const onRequest = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === "/api/auth/user") count += 1;
  };
  page.on("request", onRequest);
  await page.goto(path, { waitUntil: "networkidle" });
  page.off("request", onRequest);
  return count;
}

describe("the sign-in check", () => {
  it("runs at most once per page load, for a visitor and for a signed-in learner", async () => {
    const page = await e2e.newPage();
    // The harness forgives the browser's own "status of 4xx" lines; a visitor's check must not cause one.
    const visitorConsoleErrors: string[] = [];
    const onConsole = (msg: { type(): string; text(): string }) => {
      if (msg.type() === "error") visitorConsoleErrors.push(msg.text());
    };
    page.on("console", onConsole);
    // Pages painted on the server for a visitor (no session cookie) arrive knowing nobody is signed
    // in, so they ask nothing (decision 0032); a page the browser renders asks once.
    // Sign-in is painted too since decision 0067.
    for (const path of ["/", "/course/fixture-basics", "/login"])
      expect(await sessionChecksOnLoad(page, path), `visitor on ${path}`).toBe(0);
    page.off("console", onConsole);
    expect(visitorConsoleErrors, "a visitor's page loads log no console error").toEqual([]);

    await signUpInBrowser(page, {
      firstName: "Uma",
      lastName: "Once",
      email: `uma-${Date.now()}@example.com`,
      password: "harbour-light-51",
    });
    for (const path of ["/", "/dashboard", "/course/fixture-basics", "/my-learning", "/profile"])
      expect(await sessionChecksOnLoad(page, path), `learner on ${path}`).toBe(1);
  });
});
