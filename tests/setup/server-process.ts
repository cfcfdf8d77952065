import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";

/** A TCP port free on 127.0.0.1 right now, for a server process a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * A PostgreSQL database of the test's own beside the run's (`base`), for server processes that take
 * a DATABASE_URL rather than a schema; `drop` removes it, whoever is still connected.
 */
export async function scratchPostgresDatabase(base: string, prefix: string) {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
