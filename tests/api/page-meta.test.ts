import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { giveCertificate, newLearner } from "../setup/factories.ts";
import { createTestApp, request } from "../setup/test-app.ts";

// The app shell as Vite's template has it; the built one carries the same head.
const clientDir = join(process.env.TMPDIR ?? "/tmp", `page-meta-client-${process.pid}-${Date.now()}`);
mkdirSync(clientDir, { recursive: true });
copyFileSync("index.html", join(clientDir, "index.html"));
const t = await createTestApp({ clientDir });
afterAll(async () => t?.close());

const html = async (path: string) => {
  const res = await request(t.app, "GET", path);
  return { status: res.statusCode, body: res.body };
};
const tag = (body: string, attr: "property" | "name", key: string) =>
  new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(body)?.[1];

describe("the server's HTML names its page", () => {
  it("a course page carries its own title, description, canonical URL and share tags", async () => {
    const { status, body } = await html("/course/fixture-basics");
    expect(status).toBe(200);
    expect(body).toContain("<title>Fixture Basics | Fixture</title>");
    expect(tag(body, "name", "description")).toBe("Fixture Basics fixture course");
    expect(body).toContain(`<link rel="canonical" href="${t.config.appUrl}/course/fixture-basics" />`);
    expect(tag(body, "property", "og:title")).toBe("Fixture Basics | Fixture");
    expect(tag(body, "property", "og:url")).toBe(`${t.config.appUrl}/course/fixture-basics`);
    expect(tag(body, "name", "twitter:card")).toBe("summary");
    expect(body.match(/<title>/g)).toHaveLength(1);
    expect(body.match(/name="description"/g)).toHaveLength(1);
  });

  it("a verify page names holder, course and status, never an e-mail; markup in a name stays text", async () => {
    const learner = await newLearner(t, { firstName: '<script>"x"</script>', lastName: "Okafor" });
    const id = await giveCertificate(t.testDb.database.db, {
      id: learner.id,
      firstName: '<script>"x"</script>',
      lastName: "Okafor",
    });
    const { status, body } = await html(`/verify/${id}`);
    expect(status).toBe(200);
    const title = /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? "";
    expect(title).toContain("Okafor");
    expect(title).toContain("Fixture Basics");
    expect(tag(body, "property", "og:description")).toMatch(/Status: Valid until/);
    expect(tag(body, "property", "og:description")).toContain(id);
    expect(body).not.toContain(learner.email);
    expect(body).not.toContain('<script>"x"');
    expect(body).toContain("&lt;script&gt;&quot;x&quot;&lt;/script&gt; Okafor");
  });

  it("the landing page and the directory have their own; other pages keep the shell's", async () => {
    expect((await html("/")).body).toContain(`<link rel="canonical" href="${t.config.appUrl}/" />`);
    expect(tag((await html("/practitioners")).body, "property", "og:title")).toMatch(
      /Find a coach who holds our Certificate of Completion/,
    );
    const login = (await html("/login")).body;
    expect(login).not.toContain("og:title");
    const unknown = await html("/verify/HWA-AAAAAAAAAAAAAAAA");
    expect(unknown.body).not.toContain("og:title");
  });
});
