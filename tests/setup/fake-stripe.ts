import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

/**
 * A local stand-in for the parts of Stripe's HTTP API the academy calls (Stripe's servers are
 * out of reach here). The real `stripe` SDK talks to it through its host/port/protocol options.
 */
export interface FakeStripe {
  url: string;
  port: number;
  intents: Map<string, Record<string, any>>;
  sessions: Map<string, Record<string, any>>;
  /** Every request received since the start or the last `forgetRequests()`. */
  requests: { method: string; path: string; idempotencyKey?: string }[];
  /** Empties `requests` and ends an outage, so each test counts only its own calls. */
  forgetRequests(): void;
  /** While true, every request gets Stripe's 500 api_error (an outage). */
  failing: boolean;
  setIntentStatus(id: string, status: string, extra?: Record<string, unknown>): void;
  paySession(id: string): string;
  close(): Promise<void>;
}

function parseForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return out;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, Record<string, any>>();
  const sessions = new Map<string, Record<string, any>>();
  const byKey = new Map<string, unknown>();
  const requests: FakeStripe["requests"] = [];
  const id = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;
  const newIntent = (params: Record<string, any>) => {
    const pi = {
      id: id("pi"),
      object: "payment_intent",
      amount: Number(params.amount),
      currency: params.currency,
      status: "requires_payment_method",
      client_secret: "",
      metadata: params.metadata ?? {},
      description: params.description ?? null,
      last_payment_error: null,
    };
    pi.client_secret = `${pi.id}_secret_${randomBytes(6).toString("hex")}`;
    intents.set(pi.id, pi);
    return pi;
  };

  const fake = { failing: false } as FakeStripe;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      const key = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "", path, idempotencyKey: key });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
        res.end(JSON.stringify(json));
      };
      const missing = () =>
        send(404, { error: { type: "invalid_request_error", message: "No such object", code: "resource_missing" } });
      if (fake.failing)
        return send(500, { error: { type: "api_error", message: "Stripe is having trouble (test outage)" } });
      if (req.method === "POST" && key && byKey.has(`${path}:${key}`)) return send(200, byKey.get(`${path}:${key}`));
      const params = parseForm(body);
      let result: unknown;
      if (req.method === "POST" && path === "/v1/payment_intents") result = newIntent(params);
      else if (req.method === "GET" && path.startsWith("/v1/payment_intents/"))
        return intents.has(path.split("/")[3]) ? send(200, intents.get(path.split("/")[3])) : missing();
      else if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const item = params.line_items?.["0"];
        const cs = {
          id: id("cs"),
          object: "checkout.session",
          url: "",
          status: "open",
          payment_status: "unpaid",
          amount_total: Number(item?.price_data?.unit_amount ?? 0),
          currency: item?.price_data?.currency ?? "usd",
          metadata: params.metadata ?? {},
          payment_intent: null as string | null,
          success_url: params.success_url,
        };
        cs.url = `https://checkout.stripe.test/pay/${cs.id}`;
        sessions.set(cs.id, cs);
        result = cs;
      } else if (req.method === "GET" && path.startsWith("/v1/checkout/sessions/"))
        return sessions.has(path.split("/")[4]) ? send(200, sessions.get(path.split("/")[4])) : missing();
      else if (req.method === "POST" && path === "/v1/refunds")
        result = {
          id: id("re"),
          object: "refund",
          status: "succeeded",
          amount: Number(params.amount),
          payment_intent: params.payment_intent,
        };
      else return missing();
      if (key) byKey.set(`${path}:${key}`, result);
      send(200, result);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  Object.assign(fake, <Omit<FakeStripe, "failing">>{
    url: `http://127.0.0.1:${port}`,
    port,
    intents,
    sessions,
    requests,
    forgetRequests() {
      requests.length = 0;
      fake.failing = false;
    },
    setIntentStatus(piId, status, extra = {}) {
      Object.assign(intents.get(piId)!, { status, ...extra });
    },
    paySession(csId) {
      const cs = sessions.get(csId)!;
      const pi = newIntent({ amount: cs.amount_total, currency: cs.currency, metadata: cs.metadata });
      pi.status = "succeeded";
      Object.assign(cs, { status: "complete", payment_status: "paid", payment_intent: pi.id });
      return pi.id;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
  return fake;
}
