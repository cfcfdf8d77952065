import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  inbox: ReceivedMail[];
  /** Messages received but not yet accepted (only with `hold`). */
  held: () => number;
  /** Accepts the held messages, which then reach the inbox. */
  release: () => void;
  /**
   * Resolves once `condition` holds, checked now and whenever a message is held or reaches the inbox:
   * a wait that ends on the mail itself, not on a timer (the test's own timeout bounds it).
   */
  until: (condition: () => boolean) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real SMTP server on a free local port that keeps what it receives. With `hold`, it accepts no
 * message until `release()`, so a test can tell whether an answer waited for its mail.
 */
export async function startTestSmtp(
  options: {
    hold?: boolean;
    /** Refuses a recipient with this SMTP answer (e.g. 550 for a mistyped address, 451 for a full inbox). */
    refuse?: (address: string) => { code: number; message: string } | undefined;
  } = {},
): Promise<TestSmtp> {
  const inbox: ReceivedMail[] = [];
  const waiting: (() => void)[] = [];
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watch of [...watchers]) watch();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        const accept = () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
          changed();
        };
        if (options.hold) {
          waiting.push(accept);
          changed();
        } else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const release = () => {
    for (const accept of waiting.splice(0)) accept();
  };
  return {
    port: (server.server.address() as { port: number }).port,
    inbox,
    held: () => waiting.length,
    release,
    until: (condition) =>
      new Promise<void>((done) => {
        const watch = () => {
          if (!condition()) return;
          watchers.delete(watch);
          done();
        };
        watchers.add(watch);
        watch();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.close(resolve);
      }),
  };
}

/** The password-reset link in a received message (quoted-printable soft breaks undone). */
export function resetLinkIn(mail: ReceivedMail): string {
  const unfolded = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const [link] = /https?:\/\/\S+\/api\/auth\/reset-password\/\S+/.exec(unfolded) ?? [];
  if (!link) throw new Error(`no reset link in mail:\n${mail.raw}`);
  return link;
}

/** The e-mail verification link in a received message (quoted-printable soft breaks undone). */
export function verificationLinkIn(mail: ReceivedMail): string {
  const unfolded = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const [link] = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(unfolded) ?? [];
  if (!link) throw new Error(`no verification link in mail:\n${mail.raw}`);
  return link;
}
