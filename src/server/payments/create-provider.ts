import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import type { DB } from "../db/schema.ts";
import type { PaymentProvider } from "./provider.ts";
import { createSandboxProvider } from "./sandbox.ts";
import { createStripeProvider } from "./stripe.ts";

export function createPaymentProvider(config: Config, db: Kysely<DB>): PaymentProvider | null {
  const p = config.payments;
  if (p.provider === "none") return null;
  if (p.provider === "sandbox") return createSandboxProvider(db, config.appUrl);
  const api = p.apiBase ? new URL(p.apiBase) : null;
  return createStripeProvider({
    secretKey: p.secretKey,
    publishableKey: p.publishableKey,
    webhookSecret: p.webhookSecret,
    ...(api
      ? {
          api: {
            host: api.hostname,
            port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
            protocol: api.protocol === "https:" ? "https" : "http",
          },
        }
      : {}),
  });
}
