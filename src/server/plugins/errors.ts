import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../errors.ts";

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
