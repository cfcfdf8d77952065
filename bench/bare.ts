/**
 * The baseline: a bare node:http server in its own process that answers each benchmarked path with
 * the exact status, headers and body the app sent for it, from memory. POSTs and PUTs read their body first.
 */
import { createServer } from "node:http";

interface Canned {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const port = Number(process.env.BENCH_BARE_PORT ?? 3901);

process.once(
  "message",
  (message: {
    responses: Record<string, { status: number; headers: Record<string, string | string[]>; body: string }>;
  }) => {
    const routes = new Map<string, Canned>();
    for (const [key, r] of Object.entries(message.responses)) {
      const body = Buffer.from(r.body, "base64");
      routes.set(`/${key}`, {
        status: r.status,
        headers: { ...r.headers, "content-length": String(body.length) },
        body,
      });
    }
    const server = createServer((req, res) => {
      const canned = routes.get(req.url ?? "");
      const answer = () => {
        if (!canned) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(canned.status, canned.headers);
        res.end(canned.body);
      };
      if (req.method !== "GET") {
        req.on("data", () => {});
        req.on("end", answer);
      } else answer();
    });
    server.keepAliveTimeout = 72_000;
    server.listen(port, "127.0.0.1", () => process.send?.({ ready: true, url: `http://127.0.0.1:${port}` }));
    process.on("SIGTERM", () => server.close(() => process.exit(0)));
  },
);
