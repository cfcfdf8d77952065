import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB, SandboxPaymentTable } from "../db/schema.ts";
import type {
  CreateCheckoutInput,
  CreatePaymentInput,
  PaymentProvider,
  PaymentStatus,
  ProviderCheckoutSession,
  ProviderPaymentIntent,
} from "./provider.ts";
import { WebhookSignatureError } from "./provider.ts";

/** Stripe's test cards, as the sandbox answers them. Card numbers are never stored or logged. */
export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  /** Stays 'processing' for a few seconds, then settles through the same fulfilment path. */
  processing: "4000000000000077",
} as const;

export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export const SETTLE_AFTER_MS = 3000;

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardOutcome(card: SandboxCard, now = new Date()): { status: PaymentStatus; error: string | null } {
  const number = card.number.replace(/[\s-]/g, "");
  const declined = (error: string) => ({ status: "requires_payment_method" as const, error });
  if (!/^\d{13,19}$/.test(number) || !luhn(number)) return declined("Your card number is incorrect.");
  const lastDay = new Date(Date.UTC(card.expYear < 100 ? 2000 + card.expYear : card.expYear, card.expMonth, 1));
  if (card.expMonth < 1 || card.expMonth > 12 || lastDay <= now) return declined("Your card has expired.");
  if (!/^\d{3,4}$/.test(card.cvc)) return declined("Your card's security code is invalid.");
  switch (number) {
    case SANDBOX_CARDS.success:
      return { status: "succeeded", error: null };
    case SANDBOX_CARDS.processing:
      return { status: "processing", error: null };
    case SANDBOX_CARDS.declined:
      return declined("Your card was declined.");
    case SANDBOX_CARDS.insufficientFunds:
      return declined("Your card has insufficient funds.");
    default:
      return declined("Your card was declined. Test payments accept only the documented test cards.");
  }
}

const newId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString("hex")}`;

export interface SandboxProvider extends PaymentProvider {
  confirmPaymentIntent(id: string, clientSecret: string, card: SandboxCard): Promise<ProviderPaymentIntent>;
  payCheckoutSession(
    id: string,
    card: SandboxCard,
  ): Promise<{ session: ProviderCheckoutSession; error: string | null }>;
  /** Moves processing payments whose time has come to succeeded; returns their ids. */
  settleDuePayments(): Promise<string[]>;
}

/** The offline provider: follows Stripe's test-card behaviour, keeps its state in our database. */
export function createSandboxProvider(db: Kysely<DB>, appUrl: string): SandboxProvider {
  const toIntent = (row: SandboxPaymentTable): ProviderPaymentIntent => ({
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: row.status as PaymentStatus,
    clientSecret: row.clientSecret,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    lastError: row.lastError,
  });
  /** A complete session is paid once its payment succeeded: a processing card leaves it unpaid until it settles. */
  const toSession = (row: SandboxPaymentTable, payment?: SandboxPaymentTable): ProviderCheckoutSession => ({
    id: row.id,
    url: `${appUrl}/sandbox-checkout/${row.id}`,
    status: row.status as ProviderCheckoutSession["status"],
    paid: row.status === "complete" && (payment ? payment.status === "succeeded" : true),
    amount: row.amount,
    currency: row.currency,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    paymentIntentId: row.paymentIntentId,
  });
  const find = (id: string, kind: "intent" | "session") =>
    db.selectFrom("sandboxPayment").selectAll().where("id", "=", id).where("kind", "=", kind).executeTakeFirst();

  async function settle(row: SandboxPaymentTable): Promise<SandboxPaymentTable> {
    if (row.status === "processing" && row.settleAt && new Date(row.settleAt).getTime() <= Date.now()) {
      await db
        .updateTable("sandboxPayment")
        .set({ status: "succeeded", settleAt: null })
        .where("id", "=", row.id)
        .where("status", "=", "processing")
        .execute();
      return { ...row, status: "succeeded", settleAt: null };
    }
    return row;
  }

  async function sessionOf(row: SandboxPaymentTable): Promise<ProviderCheckoutSession> {
    const payment = row.paymentIntentId ? await find(row.paymentIntentId, "intent") : undefined;
    return toSession(row, payment ? await settle(payment as SandboxPaymentTable) : undefined);
  }

  async function createRow(kind: "intent" | "session", input: CreatePaymentInput, status: string) {
    const key = `${kind}:${input.idempotencyKey}`;
    const existing = await db
      .selectFrom("sandboxPayment")
      .selectAll()
      .where("idempotencyKey", "=", key)
      .executeTakeFirst();
    if (existing) return existing;
    const row: SandboxPaymentTable = {
      id: newId(kind === "intent" ? "pi" : "cs"),
      kind,
      amount: input.amount,
      currency: input.currency,
      status,
      clientSecret: `${randomBytes(16).toString("hex")}`,
      metadata: JSON.stringify(input.metadata),
      idempotencyKey: key,
      paymentIntentId: null,
      lastError: null,
      cardLast4: null,
      settleAt: null,
      refundedAmount: 0,
      refundId: null,
      createdAt: new Date().toISOString(),
    };
    row.clientSecret = `${row.id}_secret_${row.clientSecret}`;
    await db
      .insertInto("sandboxPayment")
      .values(row)
      .onConflict((oc) => oc.column("idempotencyKey").doNothing())
      .execute();
    return (await db
      .selectFrom("sandboxPayment")
      .selectAll()
      .where("idempotencyKey", "=", key)
      .executeTakeFirstOrThrow()) as SandboxPaymentTable;
  }

  return {
    name: "sandbox",
    publishableKey: null,
    async createPaymentIntent(input) {
      const row = await createRow("intent", input, "requires_payment_method");
      return toIntent(row as SandboxPaymentTable);
    },
    async retrievePaymentIntent(id) {
      const row = await find(id, "intent");
      return row ? toIntent(await settle(row as SandboxPaymentTable)) : null;
    },
    async createCheckoutSession(input: CreateCheckoutInput) {
      const row = await createRow("session", input, "open");
      return toSession(row as SandboxPaymentTable);
    },
    async retrieveCheckoutSession(id) {
      const row = await find(id, "session");
      return row ? sessionOf(row as SandboxPaymentTable) : null;
    },
    async confirmPaymentIntent(id, clientSecret, card) {
      const row = await find(id, "intent");
      if (!row || row.clientSecret !== clientSecret) throw new Error("No such payment intent.");
      if (row.status === "succeeded" || row.status === "processing")
        return toIntent(await settle(row as SandboxPaymentTable));
      const outcome = cardOutcome(card);
      const last4 = card.number.replace(/\D/g, "").slice(-4);
      await db
        .updateTable("sandboxPayment")
        .set({
          status: outcome.status,
          lastError: outcome.error,
          cardLast4: last4,
          settleAt: outcome.status === "processing" ? new Date(Date.now() + SETTLE_AFTER_MS).toISOString() : null,
        })
        .where("id", "=", id)
        .where("status", "in", ["requires_payment_method", "requires_confirmation"])
        .execute();
      return toIntent((await find(id, "intent")) as SandboxPaymentTable);
    },
    async payCheckoutSession(id, card) {
      const row = await find(id, "session");
      if (!row) throw new Error("No such checkout session.");
      if (row.status !== "open") return { session: await sessionOf(row as SandboxPaymentTable), error: null };
      const outcome = cardOutcome(card);
      if (outcome.status !== "succeeded" && outcome.status !== "processing")
        return {
          session: toSession(row as SandboxPaymentTable),
          error: outcome.error ?? "Payment could not be completed.",
        };
      // As on Stripe: the session completes; a processing payment leaves it unpaid until it settles,
      // and then the settle job fulfils it like a card payment.
      const intent = await createRow(
        "intent",
        {
          amount: row.amount,
          currency: row.currency,
          metadata: JSON.parse(row.metadata),
          idempotencyKey: `for-session:${id}`,
          description: "checkout",
        },
        outcome.status,
      );
      const last4 = card.number.replace(/\D/g, "").slice(-4);
      if (outcome.status === "processing")
        await db
          .updateTable("sandboxPayment")
          .set({ settleAt: new Date(Date.now() + SETTLE_AFTER_MS).toISOString(), cardLast4: last4 })
          .where("id", "=", intent.id)
          .where("settleAt", "is", null)
          .execute();
      await db
        .updateTable("sandboxPayment")
        .set({ status: "complete", paymentIntentId: intent.id, cardLast4: last4 })
        .where("id", "=", id)
        .where("status", "=", "open")
        .execute();
      return { session: await sessionOf((await find(id, "session")) as SandboxPaymentTable), error: null };
    },
    async settleDuePayments() {
      const due = await db
        .selectFrom("sandboxPayment")
        .selectAll()
        .where("kind", "=", "intent")
        .where("status", "=", "processing")
        .where("settleAt", "<=", new Date().toISOString())
        .execute();
      for (const row of due) await settle(row as SandboxPaymentTable);
      return due.map((r) => r.id);
    },
    async refund(paymentIntentId, amount) {
      const row = await find(paymentIntentId, "intent");
      if (row?.status !== "succeeded") throw new Error("Only a succeeded payment can be refunded.");
      // One refund per payment: a repeat answers with the first, as Stripe does for one idempotency key.
      await db
        .updateTable("sandboxPayment")
        .set({ refundedAmount: amount, refundId: `re_sandbox_${randomBytes(8).toString("hex")}` })
        .where("id", "=", paymentIntentId)
        .where("refundId", "is", null)
        .execute();
      const refunded = await find(paymentIntentId, "intent");
      return { id: refunded?.refundId ?? "", status: "succeeded" };
    },
    verifyWebhook() {
      throw new WebhookSignatureError("The sandbox provider sends no webhooks.");
    },
  };
}
