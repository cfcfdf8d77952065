import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

/**
 * A local stand-in for the parts of Stripe's HTTP API the academy calls (Stripe's servers are
 * out of reach here). The real `stripe` SDK talks to it through its host/port/protocol options.
 */
export interface FakeStripe {
  url: string;
  port: number;
  intents: Map<string, FakeIntent>;
  sessions: Map<string, FakeSession>;
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

/** Stripe's form encoding, where `a[b][c]=v` nests. */
interface Form {
  [key: string]: string | Form;
}
const text = (value: string | Form | undefined) => (typeof value === "string" ? value : undefined);
const nested = (value: string | Form | undefined) => (typeof value === "object" ? value : undefined);

interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string | undefined;
  status: string;
  client_secret: string;
  metadata: Form;
  description: string | null;
  last_payment_error: null;
}
interface FakeSession {
  id: string;
  object: "checkout.session";
  url: string;
  status: string;
  payment_status: string;
  amount_total: number;
  currency: string;
  metadata: Form;
  payment_intent: string | null;
  success_url: string | undefined;
}

function parseForm(body: string): Form {
  const out: Form = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        const child = nested(node[part]) ?? {};
        node[part] = child;
        node = child;
      }
    });
  }
  return out;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, FakeIntent>();
  const sessions = new Map<string, FakeSession>();
  const byKey = new Map<string, unknown>();
  const requests: FakeStripe["requests"] = [];
  const id = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;
  const newIntent = (params: { amount: unknown; currency?: string; metadata?: Form; description?: string }) => {
    const pi: FakeIntent = {
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
      const [path = ""] = (req.url ?? "").split("?");
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
      if (req.method === "POST" && path === "/v1/payment_intents")
        result = newIntent({
          amount: params.amount,
          currency: text(params.currency),
          metadata: nested(params.metadata),
          description: text(params.description),
        });
      else if (req.method === "GET" && path.startsWith("/v1/payment_intents/")) {
        const intent = intents.get(path.split("/")[3] ?? "");
        return intent ? send(200, intent) : missing();
      } else if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const price = nested(nested(nested(params.line_items)?.["0"])?.price_data);
        const cs: FakeSession = {
          id: id("cs"),
          object: "checkout.session",
          url: "",
          status: "open",
          payment_status: "unpaid",
          amount_total: Number(price?.unit_amount ?? 0),
          currency: text(price?.currency) ?? "usd",
          metadata: nested(params.metadata) ?? {},
          payment_intent: null,
          success_url: text(params.success_url),
        };
        cs.url = `https://checkout.stripe.test/pay/${cs.id}`;
        sessions.set(cs.id, cs);
        result = cs;
      } else if (req.method === "GET" && path.startsWith("/v1/checkout/sessions/")) {
        const session = sessions.get(path.split("/")[4] ?? "");
        return session ? send(200, session) : missing();
      } else if (req.method === "POST" && path === "/v1/refunds")
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
