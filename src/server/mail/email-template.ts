import type { ReactElement } from "react";

/** What every message says about its sender. */
export interface EmailSite {
  name: string;
  appUrl: string;
  supportEmail: string;
  postalAddress: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. List-Unsubscribe on reminders. */
  headers?: Record<string, string>;
}

/**
 * One kind of message: its subject and its React Email body, from the data the sender passes.
 * `sample` is the data `npm run mail:preview` renders it with.
 */
export interface EmailTemplate<Data> {
  subject(data: Data, site: EmailSite): string;
  body(data: Data, site: EmailSite): ReactElement;
  /** Where a mail client POSTs a one-click unsubscribe (List-Unsubscribe header), when the message has one. */
  unsubscribeUrl?(data: Data): string | undefined;
  sample(site: EmailSite): Data;
}

export function defineTemplate<Data>(template: EmailTemplate<Data>): EmailTemplate<Data> {
  return template;
}
