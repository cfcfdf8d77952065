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
