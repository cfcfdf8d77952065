import type { FastifyPluginAsync } from "fastify";
import type { Transaction } from "kysely";
import { webhookReceiptSchema } from "#shared/schemas/checkout.ts";
import { messageSchema } from "#shared/schemas/common.ts";
import type { DB } from "../../db/schema.ts";
import { AppError, badRequest } from "../../errors.ts";
import { type PaymentProvider, WebhookSignatureError } from "../../payments/provider.ts";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "../../plugins/json-body.ts";
import { fulfilCheckoutSession, fulfilPayment } from "./fulfilment.ts";
import { endOrderForProviderEvent } from "./refunds.ts";

/**
 * Stripe's signed webhooks. The event is recorded in the same transaction as what it caused, and a
 * failure answers 5xx so that Stripe delivers it again; events only say where to look, and the
 * payment's state is read back from Stripe, so their order does not matter.
 */
export function webhookRoutes(provider: PaymentProvider): FastifyPluginAsync {
  return async (app) => {
    const db = app.deps.database.db;
    const deps = { db, provider };
    // The signature is checked over the exact bytes Stripe sent.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) =>
      nestsDeeperThan(body) ? done(badRequest(TOO_DEEP_MESSAGE), undefined) : done(null, body),
    );
    const schema = {
      summary: "Stripe's signed webhook events",
      response: { 200: webhookReceiptSchema, 400: messageSchema, 500: messageSchema },
    };
    app.post("/api/stripe/webhook", { schema }, async (request, reply) => {
      let event: ReturnType<PaymentProvider["verifyWebhook"]>;
      try {
        event = provider.verifyWebhook(
          request.body as Buffer,
          request.headers["stripe-signature"] as string | undefined,
        );
      } catch (error) {
        if (error instanceof WebhookSignatureError)
          return reply.status(400).send({ message: `Webhook signature rejected: ${error.message}` });
        throw error;
      }
      const seen = await db.selectFrom("webhookEvent").select("id").where("id", "=", event.id).executeTakeFirst();
      if (seen) return { received: true as const, duplicate: true };
      const record = async (trx: Transaction<DB>) => {
        await trx
          .insertInto("webhookEvent")
          .values({ id: event.id, type: event.type, receivedAt: new Date().toISOString() })
          .onConflict((oc) => oc.column("id").doNothing())
          .execute();
      };
      try {
        if (event.objectType === "payment_intent") {
          await fulfilPayment(deps, event.objectId, { inTransaction: record });
        } else if (event.objectType === "checkout_session") {
          const result = await fulfilCheckoutSession(deps, event.objectId, { inTransaction: record });
          if (!result) await db.transaction().execute(record);
        } else if (
          event.paymentIntentId &&
          (event.type === "charge.refunded" || event.type === "charge.dispute.created")
        ) {
          const kind = event.type === "charge.refunded" ? "provider-refund" : "dispute";
          await endOrderForProviderEvent(db, event.paymentIntentId, kind, null, record);
        } else {
          await db.transaction().execute(record);
        }
      } catch (error) {
        if (error instanceof AppError && error.statusCode < 500) {
          // Not an academy payment, or one that does not match its order: nothing to retry.
          request.log.warn({ err: error, event: event.id }, "webhook event ignored");
          await db.transaction().execute(record);
          return { received: true as const, ignored: error.message };
        }
        request.log.error({ err: error, event: event.id }, "webhook fulfilment failed");
        return reply.status(500).send({ message: "The event could not be processed; it will be retried." });
      }
      return { received: true as const };
    });
  };
}
