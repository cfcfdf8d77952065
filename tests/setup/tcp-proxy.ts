import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones, as a database that went down. */
  cut(): void;
  /** Connections refused since the proxy started (attempts made while cut). */
  refused(): number;
  /** Forwards again, as the database back up. */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of a server (the shared PostgreSQL), so a test can take it away without stopping it. */
export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  let refused = 0;
  const server = createServer((client) => {
    if (down) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return {
    port,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    refused: () => refused,
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of open) socket.destroy();
        server.close(() => done());
      }),
  };
}
