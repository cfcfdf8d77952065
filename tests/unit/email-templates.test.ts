import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMailer } from "#server/mail/mailer.ts";
import { type EmailSite, renderSamples } from "#server/mail/render-email.ts";
import { emailTemplates } from "#server/mail/templates/index.ts";

const site: EmailSite = {
  name: "Holistic Wellness Academy",
  appUrl: "https://academy.example",
  supportEmail: "help@academy.example",
  postalAddress: "1 Test Road, Testville",
};

describe("e-mail templates", () => {
  it("renders every template with a subject, HTML and a plain-text part carrying the academy's name and support address", async () => {
    const samples = await renderSamples(site);
    expect(samples.map((s) => s.name).sort()).toEqual(Object.keys(emailTemplates).sort());
    for (const { name, email } of samples) {
      expect(email.subject, name).toMatch(/\S/);
      expect(email.html, name).toMatch(/^<!DOCTYPE html/);
      expect(email.html, name).toContain(site.supportEmail);
      expect(email.text, name).toContain(site.name);
      expect(email.text, name).toContain(site.supportEmail);
      expect(email.text, name).toContain(site.postalAddress);
      // The call to action's link is in the text too, never glued to a bracket.
      expect(email.text, name).toMatch(/https?:\/\/\S+/);
      expect(email.text, name).not.toMatch(/\[https?:/);
      expect(email.text, name).not.toContain("<");
    }
  });

  it("underlines every link and draws it at 4.5:1 or more against the white message", async () => {
    /** WCAG's relative luminance of #rrggbb. */
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrast = (hex: string) => 1.05 / (luminance(hex) + 0.05);
    let links = 0;
    for (const { name, email } of await renderSamples(site)) {
      for (const [tag] of email.html.matchAll(/<a\b[^>]*>/g)) {
        const style = /style="([^"]*)"/.exec(tag)?.[1] ?? "";
        // The call-to-action button is a filled link: white on the brand colour, checked below.
        if (/background-color/.test(style)) {
          expect(style, `${name}: ${tag}`).toMatch(/color:#ffffff/i);
          continue;
        }
        links++;
        expect(style, `${name}: ${tag}`).toMatch(/text-decoration:underline/);
        const color = /(?:^|;)color:(#[0-9a-f]{6})/i.exec(style)?.[1];
        expect(color, `${name}: ${tag}`).toBeDefined();
        expect(contrast(color!), `${name}: ${tag}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(links).toBeGreaterThan(0);
  });

  it("writes every template to the outbox as one .eml with a text/plain and a text/html part", async () => {
    const dir = mkdtempSync(join(tmpdir(), "outbox-"));
    const mailer = createMailer(
      { mailFrom: "Academy <no-reply@academy.example>", mailOutboxDir: dir, ...site },
      { info: () => {} },
    );
    const samples = await renderSamples(site);
    for (const { email } of samples) await mailer.send({ to: "learner@example.com", ...email });
    const files = readdirSync(dir);
    expect(files).toHaveLength(samples.length);
    for (const file of files) {
      const raw = readFileSync(join(dir, file), "utf8");
      expect(raw, file).toContain("Content-Type: multipart/alternative");
      expect(raw, file).toContain("Content-Type: text/plain");
      expect(raw, file).toContain("Content-Type: text/html");
    }
  });
});
