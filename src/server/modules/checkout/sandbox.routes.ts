import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  sandboxConfirmInputSchema,
  sandboxConfirmResponseSchema,
  sandboxPayInputSchema,
  sandboxPayResponseSchema,
  sandboxSessionSchema,
} from "#shared/schemas/checkout.ts";
import { notFound } from "../../errors.ts";
import type { SandboxProvider } from "../../payments/sandbox.ts";
import { requireUser } from "../../plugins/auth.ts";
import type { CourseCatalogue } from "../courses/course-catalogue.ts";
import { checkPaymentMayStart } from "./checkout.service.ts";
import { findOrder } from "./orders.repository.ts";

const sessionParams = z.strictObject({ sessionId: z.string().min(1).max(200) });
const intentParams = z.strictObject({ paymentIntentId: z.string().min(1).max(200) });

/** The offline provider's card form and hosted page: they take "money" only for a payment that may start. */
export function sandboxRoutes(catalogue: CourseCatalogue, sandbox: SandboxProvider): FastifyPluginAsyncZod {
  return async (app) => {
    const db = app.deps.database.db;
    const titleOf = async (courseId: string) => (await catalogue.course(courseId))?.card.title ?? courseId;
    const orderOf = async (metadata: Record<string, string>) =>
      metadata.orderId ? findOrder(db, metadata.orderId) : undefined;

    app.post(
      "/api/sandbox/payment-intents/:paymentIntentId/confirm",
      {
        schema: {
          params: intentParams,
          body: sandboxConfirmInputSchema,
          response: { 200: sandboxConfirmResponseSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const intent = await sandbox.retrievePaymentIntent(request.params.paymentIntentId);
        const order = intent ? await orderOf(intent.metadata) : undefined;
        if (!intent || !order || order.userId !== user.id) throw notFound("Payment not found.");
        await checkPaymentMayStart(db, order);
        const result = await sandbox
          .confirmPaymentIntent(intent.id, request.body.clientSecret, request.body.card)
          .catch(() => {
            throw notFound("Payment not found.");
          });
        return { status: result.status, error: result.lastError };
      },
    );

    app.get(
      "/api/sandbox/checkout-sessions/:sessionId",
      { schema: { params: sessionParams, response: { 200: sandboxSessionSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const session = await sandbox.retrieveCheckoutSession(request.params.sessionId);
        const order = session ? await orderOf(session.metadata) : undefined;
        if (!session || !order || order.userId !== user.id) throw notFound("Checkout session not found.");
        const courseId = order.courseId;
        return {
          id: session.id,
          status: session.status,
          amount: session.amount,
          currency: session.currency,
          courseTitle: await titleOf(courseId),
          successUrl: `/checkout/success?session_id=${encodeURIComponent(session.id)}&course_id=${encodeURIComponent(courseId)}`,
          cancelUrl: `/course/${encodeURIComponent(courseId)}`,
        };
      },
    );

    app.post(
      "/api/sandbox/checkout-sessions/:sessionId/pay",
      { schema: { params: sessionParams, body: sandboxPayInputSchema, response: { 200: sandboxPayResponseSchema } } },
      async (request) => {
        const user = await requireUser(request);
        const existing = await sandbox.retrieveCheckoutSession(request.params.sessionId);
        const order = existing ? await orderOf(existing.metadata) : undefined;
        if (!existing || !order || order.userId !== user.id) throw notFound("Checkout session not found.");
        await checkPaymentMayStart(db, order);
        const { session, error } = await sandbox.payCheckoutSession(existing.id, request.body.card);
        if (error) return { redirectUrl: null, error };
        return {
          redirectUrl: `/checkout/success?session_id=${encodeURIComponent(session.id)}&course_id=${encodeURIComponent(order.courseId)}`,
          error: null,
        };
      },
    );
  };
}
