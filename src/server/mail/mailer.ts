import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A link the message carries, logged when mail goes to the outbox folder. */
  link?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

/** Real SMTP when SMTP_URL is set; otherwise each message becomes an .eml file in the outbox folder. */
export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "mailOutboxDir">, log: Log): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from: config.mailFrom,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      mkdirSync(config.mailOutboxDir, { recursive: true });
      const file = join(
        config.mailOutboxDir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${info.messageId.replace(/[^a-z0-9]/gi, "")}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, link: mail.link, file }, "mail written to outbox");
    },
  };
}
