import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseBusy, isDatabaseUnavailable } from "../db/database.ts";
import { AppError } from "../errors.ts";

/** What a request gets while the database is away (docs/deploy.md); the client may simply retry. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service is briefly unavailable while its database reconnects. Please try again in a moment.";

/** What a request gets while the instance is overloaded (the database up, every connection busy; decision 0049). */
export const OVERLOADED_MESSAGE = "The service is busy right now. Please try again in a moment.";
/** Seconds a client is asked to wait: overload passes quickly, a reconnect takes longer. */
export const RETRY_AFTER = { overloaded: "2", unavailable: "5" };

/** Every error leaves as JSON `{ message }`, with no stack trace. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ ...error.details, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = first?.instancePath
        ? `${error.validationContext ?? "body"}${first.instancePath.replace(/\//g, ".")}`
        : (error.validationContext ?? "request");
      return reply.status(400).send({ message: `Invalid ${where}: ${first?.message ?? "bad input"}` });
    }
    if (isDatabaseBusy(error)) {
      request.log.warn({ err: error }, "overloaded: the database was too busy to answer in time");
      return reply.status(503).header("retry-after", RETRY_AFTER.overloaded).send({ message: OVERLOADED_MESSAGE });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .status(503)
        .header("retry-after", RETRY_AFTER.unavailable)
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(500).send({ message: "Something went wrong on our side. Please try again." });
    }
    const messages: Record<string, string> = {
      FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
      FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty.",
      FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large (1 MB at most).",
      FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type: send application/json.",
    };
    return reply.status(status).send({ message: messages[error.code] ?? error.message });
  });
}
