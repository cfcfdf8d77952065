import Stripe from "stripe";
import { CURRENCY } from "#shared/constants.ts";
import { messageOf } from "../errors.ts";
import type {
  CreateCheckoutInput,
  CreatePaymentInput,
  PaymentProvider,
  ProviderCheckoutSession,
  ProviderEvent,
  ProviderPaymentIntent,
} from "./provider.ts";
import { WebhookSignatureError } from "./provider.ts";

/** How far ahead of our clock a webhook's signature or event may be dated (clocks drift a little). */
export const WEBHOOK_CLOCK_SKEW_SECONDS = 60;

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Tests point the SDK at a local fake of Stripe's API. */
  api?: { host: string; port: number; protocol: "http" | "https" };
  webhookToleranceSeconds?: number;
}

const metadataOf = (m: Stripe.Metadata | null | undefined): Record<string, string> => ({ ...(m ?? {}) });

function toIntent(pi: Stripe.PaymentIntent): ProviderPaymentIntent {
  return {
    id: pi.id,
    amount: pi.amount,
    currency: pi.currency,
    status: pi.status as ProviderPaymentIntent["status"],
    clientSecret: pi.client_secret ?? null,
    metadata: metadataOf(pi.metadata),
    lastError: pi.last_payment_error?.message ?? null,
  };
}

function toSession(s: Stripe.Checkout.Session): ProviderCheckoutSession {
  return {
    id: s.id,
    url: s.url ?? null,
    status: (s.status ?? "open") as ProviderCheckoutSession["status"],
    paid: s.payment_status === "paid",
    amount: s.amount_total ?? 0,
    currency: s.currency ?? CURRENCY,
    metadata: metadataOf(s.metadata),
    paymentIntentId: typeof s.payment_intent === "string" ? s.payment_intent : (s.payment_intent?.id ?? null),
  };
}

/** Stripe through its official SDK: Payment Intents, Checkout Sessions and signed webhooks. */
export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    ...(settings.api ? { host: settings.api.host, port: settings.api.port, protocol: settings.api.protocol } : {}),
  });
  const notFound = (error: unknown) =>
    error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;
  const meta = (input: CreatePaymentInput) =>
    Object.fromEntries(Object.entries(input.metadata).filter(([, v]) => v !== undefined)) as Record<string, string>;

  return {
    name: "stripe",
    publishableKey: settings.publishableKey,
    async createPaymentIntent(input) {
      const pi = await stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          metadata: meta(input),
          description: input.description,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toIntent(pi);
    },
    async retrievePaymentIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async createCheckoutSession(input: CreateCheckoutInput) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amount,
                product_data: { name: input.productName },
              },
            },
          ],
          metadata: meta(input),
          payment_intent_data: { metadata: meta(input), description: input.description },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toSession(session);
    },
    async retrieveCheckoutSession(id) {
      try {
        return toSession(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async refund(paymentIntentId, amount) {
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount },
        { idempotencyKey: `refund:${paymentIntentId}` },
      );
      return { id: refund.id, status: refund.status ?? "pending" };
    },
    verifyWebhook(rawBody, signature): ProviderEvent {
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header.");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          settings.webhookToleranceSeconds ?? 300,
        );
      } catch (error) {
        throw new WebhookSignatureError(messageOf(error));
      }
      // Stripe's check only bounds a signature's age; one dated ahead of our clock is refused too.
      const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? Number.NaN);
      const latest = Date.now() / 1000 + WEBHOOK_CLOCK_SKEW_SECONDS;
      if (!(signedAt <= latest) || event.created > latest)
        throw new WebhookSignatureError("The event is dated in the future; check the server's clock.");
      const object = event.data.object as {
        id?: string;
        object?: string;
        payment_intent?: string | { id: string } | null;
      };
      const types: Record<string, ProviderEvent["objectType"]> = {
        payment_intent: "payment_intent",
        "checkout.session": "checkout_session",
        charge: "charge",
        dispute: "dispute",
      };
      const pi = object.payment_intent;
      return {
        id: event.id,
        type: event.type,
        objectId: object.id ?? "",
        objectType: types[object.object ?? ""] ?? "other",
        paymentIntentId: typeof pi === "string" ? pi : (pi?.id ?? null),
      };
    },
  };
}
