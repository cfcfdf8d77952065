import { render, toPlainText } from "@react-email/render";
import { BRAND_NAME } from "#shared/constants.ts";
import type { Config } from "../config.ts";
import type { EmailSite, RenderedEmail } from "./email-template.ts";
import { type EmailData, type EmailTemplateName, templateByName, templateNames } from "./templates/index.ts";

export type { EmailData, EmailSite, EmailTemplateName, RenderedEmail };

export function emailSite(config: Pick<Config, "appUrl" | "supportEmail" | "postalAddress">): EmailSite {
  return {
    name: BRAND_NAME,
    appUrl: config.appUrl,
    supportEmail: config.supportEmail,
    postalAddress: config.postalAddress,
  };
}

/** Renders one message: its subject, HTML, and the plain-text alternative made from that HTML. */
export async function renderEmail<Name extends EmailTemplateName>(
  name: Name,
  data: EmailData<Name>,
  site: EmailSite,
): Promise<RenderedEmail> {
  const template = templateByName[name];
  const html = await render(template.body(data, site));
  const text = toPlainText(html, {
    // React Email's defaults already write links as "Label https://..." (no brackets glued to the URL).
    selectors: [{ selector: "h1", options: { uppercase: false } }],
  });
  const unsubscribeUrl = template.unsubscribeUrl?.(data);
  return {
    subject: template.subject(data, site),
    html,
    text,
    ...(unsubscribeUrl
      ? {
          // RFC 8058 one-click: mail clients POST to the link; the link itself also works when opened.
          headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        }
      : {}),
  };
}

/** Every template with its sample data (for `npm run mail:preview` and the tests). */
export async function renderSamples(site: EmailSite): Promise<{ name: EmailTemplateName; email: RenderedEmail }[]> {
  const renderSample = async <Name extends EmailTemplateName>(name: Name) => ({
    name,
    email: await renderEmail(name, templateByName[name].sample(site), site),
  });
  return Promise.all(templateNames.map(renderSample));
}
