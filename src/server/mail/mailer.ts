import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";
import { type EmailData, type EmailTemplateName, emailSite, renderEmail } from "./render-email.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** A link the message carries, logged when mail goes to the outbox folder. */
  link?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Renders a template (src/server/mail/templates) and sends it as HTML with its plain-text
   * alternative: `await mailer.sendEmail(user.email, "reset-password", { url })`.
   */
  sendEmail<Name extends EmailTemplateName>(
    to: string,
    name: Name,
    data: EmailData<Name>,
    options?: { link?: string },
  ): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

type MailerConfig = Pick<
  Config,
  "smtpUrl" | "mailFrom" | "mailOutboxDir" | "appUrl" | "supportEmail" | "postalAddress"
>;

/** Real SMTP when SMTP_URL is set; otherwise each message becomes an .eml file in the outbox folder. */
export function createMailer(config: MailerConfig, log: Log): Mailer {
  const send = config.smtpUrl ? smtpSender(config) : outboxSender(config, log);
  const site = emailSite(config);
  return {
    send,
    async sendEmail(to, name, data, options) {
      const email = await renderEmail(name, data, site);
      await send({ to, ...email, link: options?.link });
    },
  };
}

function message(config: MailerConfig, mail: OutgoingMail) {
  return {
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
  };
}

function smtpSender(config: MailerConfig): Mailer["send"] {
  // Bounded waits: a server that stops answering fails this attempt (the outbox tries again later)
  // instead of holding up the messages behind it.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return async (mail) => {
    await transport.sendMail(message(config, mail));
  };
}

function outboxSender(config: MailerConfig, log: Log): Mailer["send"] {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return async (mail) => {
    const info = await transport.sendMail(message(config, mail));
    mkdirSync(config.mailOutboxDir, { recursive: true });
    const file = join(
      config.mailOutboxDir,
      `${new Date().toISOString().replace(/[:.]/g, "-")}-${info.messageId.replace(/[^a-z0-9]/gi, "")}.eml`,
    );
    writeFileSync(file, info.message as Buffer);
    log.info({ to: mail.to, subject: mail.subject, link: mail.link, file }, "mail written to outbox");
  };
}
