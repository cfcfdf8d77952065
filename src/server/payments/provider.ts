/** What the academy needs from a card-payment provider. Stripe and the offline sandbox both implement it. */

export type PaymentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export interface PaymentMetadata {
  userId: string;
  courseId: string;
  originalAmount: string;
  couponCode?: string;
  [key: string]: string | undefined;
}

export interface ProviderPaymentIntent {
  id: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  clientSecret: string | null;
  metadata: Record<string, string>;
  lastError: string | null;
}

export interface ProviderCheckoutSession {
  id: string;
  url: string | null;
  status: "open" | "complete" | "expired";
  paid: boolean;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  paymentIntentId: string | null;
}

export interface ProviderEvent {
  id: string;
  type: string;
  /** The id of the payment intent, checkout session, charge or dispute the event is about. */
  objectId: string;
  objectType: "payment_intent" | "checkout_session" | "charge" | "dispute" | "other";
  /** For charges and disputes: the payment intent they belong to. */
  paymentIntentId: string | null;
}

export interface CreatePaymentInput {
  amount: number;
  currency: string;
  metadata: PaymentMetadata;
  idempotencyKey: string;
  description: string;
}

export interface CreateCheckoutInput extends CreatePaymentInput {
  productName: string;
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  readonly publishableKey: string | null;
  createPaymentIntent(input: CreatePaymentInput): Promise<ProviderPaymentIntent>;
  retrievePaymentIntent(id: string): Promise<ProviderPaymentIntent | null>;
  createCheckoutSession(input: CreateCheckoutInput): Promise<ProviderCheckoutSession>;
  retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession | null>;
  refund(paymentIntentId: string, amount: number): Promise<{ id: string; status: string }>;
  /** Checks a webhook's signature over the raw body; throws when it is missing, wrong or too old. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

export class WebhookSignatureError extends Error {}
