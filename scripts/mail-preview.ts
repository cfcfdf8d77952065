import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "#server/config.ts";
import { emailSite, renderSamples } from "#server/mail/render-email.ts";

// Renders every e-mail template with its sample data into a folder, for a person to look at:
// <name>.html, <name>.txt, and index.html linking them. Usage: npm run mail:preview [-- DIR]
const dir = resolve(process.argv[2] ?? "data/mail-preview");
const config = loadConfig();
mkdirSync(dir, { recursive: true });
const samples = await renderSamples(emailSite(config));
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
for (const { name, email } of samples) {
  writeFileSync(join(dir, `${name}.html`), email.html);
  writeFileSync(join(dir, `${name}.txt`), `Subject: ${email.subject}\n\n${email.text}\n`);
}
const rows = samples
  .map(
    ({ name, email }) =>
      `<li><a href="${name}.html">${name}</a> (<a href="${name}.txt">text</a>): ${escapeHtml(email.subject)}</li>`,
  )
  .join("\n");
writeFileSync(
  join(dir, "index.html"),
  `<!doctype html><meta charset="utf-8"><title>E-mail templates</title><ul>\n${rows}\n</ul>\n`,
);
console.log(`${samples.length} templates rendered into ${dir} (open index.html)`);
