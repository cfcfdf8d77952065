import { connect, type Socket } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#server/db/database.ts";
import { nth } from "../setup/must.ts";
import { createTestApp, type TestApp } from "../setup/test-app.ts";
import { testEngine } from "../setup/test-database.ts";

// A production server needs limits: a client that trickles its headers or body, or idles on a
// kept-alive connection, loses the connection; a statement that runs too long is cancelled. The limits
// are small here so the test need not wait; each check waits for the server's own action (no timing).
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    content: false,
    env: { HEADERS_TIMEOUT_SECONDS: "0.5", REQUEST_TIMEOUT_SECONDS: "1", KEEP_ALIVE_TIMEOUT_SECONDS: "0.5" },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => t?.close());

/** Opens a connection, writes `text`, and resolves with everything the server sent once it closed the connection. */
function untilServerCloses(write: (socket: Socket) => void): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1", () => write(socket));
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.on("error", fail);
    socket.on("close", () => done(received));
  });
}

describe("connection limits", () => {
  it("closes a connection whose headers never finish, with 408", async () => {
    const answer = await untilServerCloses((s) => s.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: "));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes a connection whose body never finishes, with 408", async () => {
    const answer = await untilServerCloses((s) =>
      s.write(
        "POST /api/validate-coupon HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      ),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes an idle kept-alive connection after its response", async () => {
    const answer = await untilServerCloses((s) =>
      s.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n"),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toMatch(/keep-alive/i);
  });
});

describe.skipIf(testEngine !== "postgres")("statement timeout", () => {
  it("has PostgreSQL cancel a statement that runs longer than the limit", async () => {
    const fallback = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(t.testDb.database.db);
    expect(nth(fallback.rows, 0).statement_timeout).toBe("15s");
    const quick = openDatabase(t.testDb.url, { schema: t.testDb.schema, poolSize: 1, statementTimeoutMs: 200 });
    try {
      await expect(sql`select pg_sleep(5)`.execute(quick.db)).rejects.toMatchObject({ code: "57014" });
    } finally {
      await quick.close();
    }
  });
});
