import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, signUpUser, type TestApp } from "../setup/test-app.ts";

// A real SMTP server that holds every message until the test releases it, so a test can tell
// whether an answer waited for the mail.
const held: (() => void)[] = [];
const delivered: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    stream.on("end", () =>
      held.push(() => {
        delivered.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      }),
    );
  },
});
const release = () => {
  for (const deliver of held.splice(0)) deliver();
};

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as { port: number }).port;
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => {
  release();
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const signUp = (email: string, password: string, firstName = "Ada") =>
  request(t.app, "POST", "/api/auth/sign-up/email", {
    payload: { email, password, name: `${firstName} L`, firstName, lastName: "Lovelace" },
  });
const shape = (body: { token: unknown; user: Record<string, unknown> }) => ({
  token: body.token,
  userFields: Object.keys(body.user).sort(),
  email: body.user.email,
});

describe("sign-up does not reveal which addresses are registered", () => {
  it("answers a sign-up for a registered address exactly like a new one, and tells the owner by e-mail", async () => {
    release();
    const owner = await signUpUser(t.app, { email: "owner@example.com", password: "owner-secret-71" });
    release();
    delivered.length = 0;

    const fresh = await signUp("newcomer@example.com", "other-secret-72");
    const again = await signUp(owner.email, "other-secret-72", "Mallory");
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(fresh.statusCode).toBe(200);
    expect(shape(again.json())).toEqual({ ...shape(fresh.json()), email: owner.email });
    expect(again.headers["set-cookie"] ?? []).toEqual([]);
    expect(fresh.headers["set-cookie"] ?? []).toEqual([]);

    await expect
      .poll(() => {
        release();
        return delivered.length;
      })
      .toBe(2);
    const toOwner = delivered.find((m) => m.to.includes(owner.email));
    expect(toOwner?.raw).toMatch(/tried to create/i);
    const toNewcomer = delivered.find((m) => m.to.includes("newcomer@example.com"));
    expect(toNewcomer?.raw).toMatch(/verify-email/);

    // The existing account is untouched: its own password still works, the newcomer's does not.
    const signIn = (password: string) =>
      request(t.app, "POST", "/api/auth/sign-in/email", { payload: { email: owner.email, password } });
    expect((await signIn("owner-secret-71")).statusCode).toBe(200);
    expect((await signIn("other-secret-72")).statusCode).toBe(401);
    const me = await request(t.app, "GET", "/api/auth/user", { cookie: owner.cookie });
    expect(me.json().firstName).toBe("Test");
  });

  it("answers a reset request before its e-mail is delivered, for known and unknown addresses alike", async () => {
    release();
    const user = await signUpUser(t.app, { email: "reset-me@example.com" });
    release();
    delivered.length = 0;
    // The SMTP server holds the message: an answer that waited for the mail would never come.
    const known = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: user.email, redirectTo: "/reset-password" },
    });
    const unknown = await request(t.app, "POST", "/api/auth/request-password-reset", {
      payload: { email: "nobody-here@example.com", redirectTo: "/reset-password" },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(delivered).toEqual([]);
    await expect.poll(() => held.length).toBe(1);
    release();
    await expect.poll(() => delivered.length).toBe(1);
    expect(delivered[0].to).toEqual([user.email]);
  });
});
