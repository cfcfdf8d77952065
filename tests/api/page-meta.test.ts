import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { certificateCard, shareCardKey } from "#server/modules/site/share-cards.ts";
import { giveCertificate, newLearner } from "../setup/factories.ts";
import { createTestApp, request, signUpUser, verifyEmail } from "../setup/test-app.ts";

// The app shell as Vite's template has it; the built one carries the same head.
const clientDir = join(process.env.TMPDIR ?? "/tmp", `page-meta-client-${process.pid}-${Date.now()}`);
mkdirSync(clientDir, { recursive: true });
copyFileSync("index.html", join(clientDir, "index.html"));
const t = await createTestApp({ clientDir, env: { ADMIN_EMAILS: "head@academy.example" } });
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
    expect(tag(body, "name", "twitter:card")).toBe("summary_large_image");
    expect(tag(body, "name", "keywords")).toBe("fixture, test");
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
    const unknown = await html("/verify/HWA-AAAAAAAAAAAAAAAA");
    expect(unknown.body).not.toContain("og:title");
    expect((await html("/my-learning")).body).not.toContain("og:title");
  });

  it("sign-in, terms and privacy name themselves, with no share image", async () => {
    for (const [path, title] of [
      ["/login", "Sign In"],
      ["/terms", "Terms of Service"],
      ["/privacy", "Privacy Policy"],
    ] as const) {
      const { body } = await html(path);
      expect(body).toContain(`<title>${title} | Holistic Wellness Academy</title>`);
      expect(body).toContain(`<link rel="canonical" href="${t.config.appUrl}${path}" />`);
      expect(tag(body, "name", "twitter:card")).toBe("summary");
      expect(body).not.toContain("og:image");
    }
  });

  it("the preview lesson has its own title and description; a lesson past it keeps the shell's", async () => {
    const { body } = await html("/course/fixture-basics/lesson/alpha-one");
    expect(body).toContain("<title>Lesson alpha-one | Holistic Wellness Academy</title>");
    expect(tag(body, "name", "description")).toBe(
      "Lesson alpha-one: a lesson of Fixture Basics at Holistic Wellness Academy.",
    );
    expect(tag(body, "name", "keywords")).toBe("fixture, test");
    expect(tag(body, "property", "og:image")).toMatch(/\/api\/share-images\/courses\/fixture-basics\?v=/);
    expect((await html("/course/fixture-basics/lesson/alpha-two")).body).not.toContain("og:title");
  });
});

/** The picture an `og:image` names, fetched as a crawler would: status, headers and PNG facts. */
const shareImage = async (body: string) => {
  const url = tag(body, "property", "og:image") ?? "";
  expect(url.startsWith(`${t.config.appUrl}/api/share-images/`), url).toBe(true);
  const res = await request(t.app, "GET", url.slice(t.config.appUrl.length));
  const png = res.rawPayload;
  return {
    url,
    version: new URL(url).searchParams.get("v"),
    status: res.statusCode,
    type: res.headers["content-type"],
    etag: String(res.headers.etag),
    cacheControl: res.headers["cache-control"],
    png,
    signature: png.subarray(0, 8).toString("hex"),
    width: png.length >= 24 ? png.readUInt32BE(16) : 0,
    height: png.length >= 24 ? png.readUInt32BE(20) : 0,
  };
};
const PNG_SIGNATURE = "89504e470d0a1a0a";

describe("share previews (decision 0067)", () => {
  it("a course page's raw HTML names a 1200x630 PNG of the course, kept per published version", async () => {
    const { body } = await html("/course/fixture-basics");
    expect(tag(body, "property", "og:image:width")).toBe("1200");
    expect(tag(body, "property", "og:image:height")).toBe("630");
    expect(tag(body, "property", "og:image:alt")).toContain("Fixture Basics");
    const image = await shareImage(body);
    expect(image.version).toMatch(/^1\.\d+\./);
    expect(image).toMatchObject({ status: 200, type: "image/png", signature: PNG_SIGNATURE, width: 1200, height: 630 });
    expect(image.cacheControl).toBe("public, max-age=31536000, immutable");
    expect(tag(body, "name", "twitter:image")).toBe(image.url);
    // Another course draws another picture; asking again with the ETag costs nothing.
    const other = await shareImage((await html("/course/fixture-other")).body);
    expect(other.png.equals(image.png)).toBe(false);
    const again = await request(t.app, "GET", image.url.slice(t.config.appUrl.length), {
      headers: { "if-none-match": image.etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it("a verify page's image shows the holder, course and status, never the e-mail, and changes when revoked", async () => {
    const learner = await newLearner(t, { firstName: "Amara", lastName: "Okafor" });
    const id = await giveCertificate(t.testDb.database.db, { id: learner.id, firstName: "Amara", lastName: "Okafor" });
    const before = await shareImage((await html(`/verify/${id}`)).body);
    expect(before).toMatchObject({
      status: 200,
      type: "image/png",
      signature: PNG_SIGNATURE,
      width: 1200,
      height: 630,
    });
    // What the renderer was given is what the address names: the card of the public verification.
    const verification = (await request(t.app, "GET", `/api/verify/${id}`)).json();
    const card = certificateCard(t.config.appUrl, id, verification);
    expect(before.version).toBe(shareCardKey(card));
    const drawn = JSON.stringify(card);
    expect(drawn).toContain("Amara Okafor");
    expect(drawn).toContain("Fixture Basics");
    expect(card.badge?.text).toMatch(/^Valid until /);
    expect(drawn).not.toContain(learner.email);
    expect(drawn).not.toContain(learner.email.split("@")[0]);

    const admin = await signUpUser(t.app, { email: "head@academy.example" });
    await verifyEmail(t, admin);
    const revoked = await request(t.app, "POST", `/api/admin/certificates/${id}/revoke`, {
      cookie: admin.cookie,
      payload: { reason: "Issued in error" },
    });
    expect(revoked.statusCode).toBe(200);
    const after = await shareImage((await html(`/verify/${id}`)).body);
    expect(after).toMatchObject({ status: 200, type: "image/png", width: 1200, height: 630 });
    expect(after.version).not.toBe(before.version);
    expect(after.png.equals(before.png)).toBe(false);
    const revokedCard = certificateCard(t.config.appUrl, id, (await request(t.app, "GET", `/api/verify/${id}`)).json());
    expect(revokedCard.badge).toEqual({ text: "Revoked", tone: "revoked" });
    // The old address now answers the new state, to be asked again, and the old ETag no longer holds.
    const old = await request(t.app, "GET", before.url.slice(t.config.appUrl.length), {
      headers: { "if-none-match": before.etag },
    });
    expect(old.statusCode).toBe(200);
    expect(old.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(old.rawPayload.equals(after.png)).toBe(true);
  });

  it("the landing page and the directory share the academy's picture", async () => {
    const home = await shareImage((await html("/")).body);
    const directory = await shareImage((await html("/practitioners")).body);
    expect(home).toMatchObject({ status: 200, type: "image/png", signature: PNG_SIGNATURE, width: 1200, height: 630 });
    expect(directory.url).toBe(home.url);
  });

  it("unknown courses and certificates answer 404 with a message; a bad version is refused", async () => {
    const course = await request(t.app, "GET", "/api/share-images/courses/no-such-course");
    expect(course.statusCode).toBe(404);
    expect(course.json()).toEqual({ message: "Course not found." });
    const certificate = await request(t.app, "GET", "/api/share-images/certificates/HWA-AAAAAAAAAAAAAAAA");
    expect(certificate.statusCode).toBe(404);
    expect(certificate.json()).toEqual({ message: "No certificate has this ID." });
    const bad = await request(t.app, "GET", `/api/share-images/academy?v=${"x".repeat(65)}`);
    expect(bad.statusCode).toBe(400);
  });
});
